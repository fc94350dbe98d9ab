// Agreement inside one span, in English: only grammatical number.
//
// * `inflect: true`: the span's number is its first numeric argument (or, failing that, its first literal integer).
//   The noun after it ("2 red apples", "2 cups of coffee"), the verbs after it ("2 files were"), and "be" and
//   demonstratives before it ("There are 2 errors", "these 2") take its number. Without a number nothing
//   changes, unless an `inflectionAlternative` is given and the span has a word whose form depends on the number.
// * `agreeWithArgument: n`: the span takes the number of argument n (1-based, in order). Its verbs and
//   demonstratives agree; a span without any is a noun, and its last word agrees.
// * `agreeWithArgument: \(count)`, an interpolated argument as the value: the span takes that argument's own number
//   (Foundation would read its formatted text as an index; docs/inflection.md says why Canopy does not).
// * Anything else (unknown attributes, `inflect: false`, `agreeWithConcept` without concepts): the text is kept.

/// An interpolated argument: what it shows and, when numeric, the value it was formatted from.
struct InflectionArgument: Equatable {
    let text: String
    let number: Double?
}

/// Output of a span: text or a still-atomic argument, so enclosing spans can find the number.
enum Piece: Equatable {
    case text(String)
    case argument(Int)
}

/// Applies each span's agreement to its content, innermost spans first.
struct Agreement {
    let arguments: [InflectionArgument]

    /// The nodes as pieces, every span agreed.
    func pieces(_ nodes: [MarkupNode]) -> [Piece] {
        nodes.flatMap { node -> [Piece] in
            switch node {
            case .text(let text): [.text(text)]
            case .argument(let index): [.argument(index)]
            case .span(let children, let attributes): agree(pieces(children), attributes)
            }
        }
    }

    /// The characters of the pieces, each argument shown as its text.
    func text(of pieces: [Piece]) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .argument(let index): arguments[index].text
            }
        }.joined()
    }

    private func agree(_ content: [Piece], _ attributes: [String: AttributeValue]) -> [Piece] {
        switch attributes["agreeWithArgument"] {
        case .number(let reference)?:
            guard reference == reference.rounded(), reference >= 1, reference <= Double(arguments.count) else {
                return content
            }
            return agree(content, withArgument: Int(reference) - 1)
        case .argument(let index)?:
            // `agreeWithArgument: \(count)`: the author wrote the count itself, so the span agrees with it.
            return agree(content, withArgument: index)
        default:
            break
        }
        guard attributes["inflect"] == .bool(true) else { return content }
        var tokens = InflectionToken.split(content)
        guard let (position, plural) = count(in: tokens) else {
            if case .string(let alternative)? = attributes["inflectionAlternative"],
                tokens.contains(where: { $0.word.map(EnglishForms.agrees) ?? false })
            {
                return [.text(alternative)]
            }
            return content
        }
        agreePhrase(&tokens, numberAt: position, plural: plural)
        return InflectionToken.join(tokens)
    }

    /// The span agreed with the number of the argument at `index`; unchanged when that argument is not a number.
    private func agree(_ content: [Piece], withArgument index: Int) -> [Piece] {
        let argument = arguments[index]
        guard let value = argument.number else { return content }
        var tokens = InflectionToken.split(content)
        agreeDependent(&tokens, plural: Self.isPlural(value, shown: argument.text))
        return InflectionToken.join(tokens)
    }

    /// English plural rule (CLDR): "one" is exactly 1 shown without decimals; 0, 2, 1.5 and "1.0" are plural.
    static func isPlural(_ value: Double, shown text: String) -> Bool {
        !(value.magnitude == 1 && !text.contains("."))
    }

    /// Where the span's number is and whether it is plural.
    private func count(in tokens: [InflectionToken]) -> (Int, Bool)? {
        for (position, token) in tokens.enumerated() {
            if case .argument(let index) = token, let value = arguments[index].number {
                return (position, Self.isPlural(value, shown: arguments[index].text))
            }
        }
        for (position, token) in tokens.enumerated() {
            if case .word(let word) = token, Self.isNumeral(word), let value = Double(word) {
                return (position, Self.isPlural(value, shown: word))
            }
        }
        return nil
    }

    private func agreePhrase(_ tokens: inout [InflectionToken], numberAt position: Int, plural: Bool) {
        for index in tokens.indices {
            guard case .word(let word) = tokens[index], EnglishForms.agrees(word) else { continue }
            // After the number, "that" is a relative pronoun ("2 files that are open"), not a demonstrative.
            if index > position && EnglishForms.isDemonstrative(word) { continue }
            // Before it, only "be" has the counted phrase as its subject ("there are 2"; not "you have 2").
            if index < position && EnglishForms.isVerb(word) && !EnglishForms.isBe(word) { continue }
            tokens[index] = .word(EnglishForms.agreeing(word, plural: plural))
        }
        if let noun = nounAfter(position, in: tokens) { inflectNoun(&tokens, at: noun, plural: plural) }
    }

    private func agreeDependent(_ tokens: inout [InflectionToken], plural: Bool) {
        var agreed = false
        for index in tokens.indices {
            guard case .word(let word) = tokens[index], EnglishForms.agrees(word) else { continue }
            tokens[index] = .word(EnglishForms.agreeing(word, plural: plural))
            agreed = true
        }
        guard !agreed, let last = tokens.lastIndex(where: { isNounCandidate($0) }) else { return }
        inflectNoun(&tokens, at: last, plural: plural)
    }

    /// The head of the noun phrase after the number: the last word before a verb, a preposition or punctuation.
    private func nounAfter(_ position: Int, in tokens: [InflectionToken]) -> Int? {
        var noun: Int?
        scan: for index in tokens.indices where index > position {
            switch tokens[index] {
            case .space: continue
            case .other("-") where isInsideWord(index, tokens): continue
            case .word(let word):
                let lower = word.lowercased()
                if EnglishForms.agrees(word) || EnglishForms.phraseBreakers.contains(lower) || Self.isNumeral(word) {
                    break scan
                }
                noun = index
            case .argument(let argument):
                guard arguments[argument].number == nil else { break scan }
                noun = index
            case .other: break scan
            }
        }
        return noun
    }

    /// A hyphen joining two words ("e-mail"): the compound's head is its last part, so the scan goes on.
    private func isInsideWord(_ index: Int, _ tokens: [InflectionToken]) -> Bool {
        index > 0 && index + 1 < tokens.count && tokens[index - 1].word != nil && tokens[index + 1].word != nil
    }

    /// A literal integer written in the span ("^[2 apple](inflect: true)").
    static func isNumeral(_ word: String) -> Bool {
        word.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private func isNounCandidate(_ token: InflectionToken) -> Bool {
        switch token {
        case .word(let word): !Self.isNumeral(word)
        case .argument(let index): arguments[index].number == nil
        case .space, .other: false
        }
    }

    private func inflectNoun(_ tokens: inout [InflectionToken], at index: Int, plural: Bool) {
        switch tokens[index] {
        case .word(let word):
            tokens[index] = .word(EnglishForms.noun(word, plural: plural))
        case .argument(let argument):
            // A string argument ("\(food)") is the noun; of several words, the last one is the head.
            let text = arguments[argument].text
            let head = text.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init) ?? text
            tokens[index] = .word(String(text.dropLast(head.count)) + EnglishForms.noun(head, plural: plural))
        case .space, .other:
            break
        }
    }
}
