// English word forms for number agreement. Foundation uses a lexicon; this is a small rule set with the common
// exceptions, written for UI strings ("2 errors", "3 people", "are"). Words are written in the singular in the
// source, as Foundation asks; only irregular plurals and agreeing verbs also turn back into the singular.

/// English singular and plural forms of nouns, of the verbs that agree in number, and of demonstratives.
enum EnglishForms {
    /// Singular -> plural for nouns whose plural is not made with a suffix.
    static let irregularPlurals: [String: String] = [
        "person": "people", "child": "children", "man": "men", "woman": "women", "mouse": "mice",
        "foot": "feet", "tooth": "teeth", "goose": "geese", "ox": "oxen", "louse": "lice",
        "leaf": "leaves", "loaf": "loaves", "thief": "thieves", "wolf": "wolves", "calf": "calves",
        "half": "halves", "knife": "knives", "wife": "wives", "life": "lives", "shelf": "shelves",
        "self": "selves", "elf": "elves", "sheaf": "sheaves", "quiz": "quizzes",
    ]
    /// Plural -> singular for the irregular nouns.
    static let irregularSingulars: [String: String] = Dictionary(
        uniqueKeysWithValues: irregularPlurals.map { ($0.value, $0.key) })
    /// Nouns whose plural is the singular.
    static let invariant: Set<String> = [
        "sheep", "fish", "series", "species", "deer", "moose", "aircraft", "offspring", "information",
        "equipment",
    ]
    /// Nouns in -o that take -es (most take -s: photos, videos, pianos).
    static let oesNouns: Set<String> = ["potato", "tomato", "hero", "echo", "veto", "torpedo", "embargo"]
    /// Singular <-> plural for verbs that agree in number (present and past of be; have, do) and demonstratives.
    static let agreeingPairs: [(singular: String, plural: String)] = [
        ("is", "are"), ("was", "were"), ("has", "have"), ("does", "do"), ("isn't", "aren't"),
        ("wasn't", "weren't"), ("hasn't", "haven't"), ("doesn't", "don't"), ("this", "these"), ("that", "those"),
    ]
    static let demonstratives: Set<String> = ["this", "these", "that", "those"]
    /// Words that end a noun phrase after its number ("2 cups of coffee": the noun is "cups").
    static let phraseBreakers: Set<String> = ["of", "in", "on", "at", "for", "with", "from", "to", "by", "and", "or"]

    /// Whether `word` is a verb or demonstrative that changes with number.
    static func agrees(_ word: String) -> Bool {
        let key = normalized(word)
        return agreeingPairs.contains { $0.singular == key || $0.plural == key }
    }

    static func isDemonstrative(_ word: String) -> Bool {
        demonstratives.contains(normalized(word))
    }

    /// Whether `word` is a present or past form of "be" (with its negations).
    static func isBe(_ word: String) -> Bool {
        ["is", "are", "was", "were", "isn't", "aren't", "wasn't", "weren't"].contains(normalized(word))
    }

    static func isVerb(_ word: String) -> Bool {
        agrees(word) && !isDemonstrative(word)
    }

    /// The form of an agreeing verb or demonstrative for the number; the word itself when it does not agree.
    static func agreeing(_ word: String, plural: Bool) -> String {
        let key = normalized(word)
        guard let pair = agreeingPairs.first(where: { $0.singular == key || $0.plural == key }) else { return word }
        var form = plural ? pair.plural : pair.singular
        if word.contains("\u{2019}") { form = form.replacingApostrophes() }
        return cased(form, like: word)
    }

    /// The noun's form for the number.
    static func noun(_ word: String, plural: Bool) -> String {
        let lower = word.lowercased()
        guard word.contains(where: \.isLetter), !invariant.contains(lower) else { return word }
        guard plural else { return irregularSingulars[lower].map { cased($0, like: word) } ?? word }
        if let irregular = irregularPlurals[lower] { return cased(irregular, like: word) }
        if irregularSingulars[lower] != nil { return word }
        let (drop, suffix) = regularSuffix(lower)
        // Acronyms (URL, CPU) take a lowercase "s"; longer all-capital words are shouted and stay so.
        let shouted = word.count > 3 && word == word.uppercased()
        return String(word.dropLast(drop)) + (shouted ? suffix.uppercased() : suffix)
    }

    /// How many characters to drop and what to append to make the regular plural of a lowercase noun.
    private static func regularSuffix(_ lower: String) -> (Int, String) {
        let last = lower.last ?? " "
        let beforeLast = lower.dropLast().last ?? " "
        if ["s", "x", "z"].contains(last) || lower.hasSuffix("ch") || lower.hasSuffix("sh") { return (0, "es") }
        if last == "y", !"aeiou".contains(beforeLast) { return (1, "ies") }
        if oesNouns.contains(lower) { return (0, "es") }
        return (0, "s")
    }

    /// `form` (lowercase) with the capitalization of `original`: all capitals, a capital first letter, or none.
    static func cased(_ form: String, like original: String) -> String {
        let letters = original.filter(\.isLetter)
        if letters.count > 1, letters == letters.uppercased() { return form.uppercased() }
        if let first = original.first, first.isUppercase { return form.prefix(1).uppercased() + form.dropFirst() }
        return form
    }

    private static func normalized(_ word: String) -> String {
        String(word.lowercased().map { $0 == "\u{2019}" ? "'" : $0 })
    }
}

extension String {
    /// The string with typewriter apostrophes turned into typographic ones.
    fileprivate func replacingApostrophes() -> String {
        String(map { $0 == "'" ? "\u{2019}" : $0 })
    }
}
