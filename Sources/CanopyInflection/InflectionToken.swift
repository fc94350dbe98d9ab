/// A span's content cut into words, whitespace, other characters and arguments, for agreement word by word.
enum InflectionToken: Equatable {
    case word(String)
    case space(String)
    case other(String)
    case argument(Int)

    /// The word, when the token is one.
    var word: String? {
        if case .word(let word) = self { word } else { nil }
    }

    /// Words are letters and digits, with inner apostrophes ("doesn't", "isn’t").
    static func split(_ pieces: [Piece]) -> [InflectionToken] {
        var tokens: [InflectionToken] = []
        for piece in pieces {
            switch piece {
            case .argument(let index):
                tokens.append(.argument(index))
            case .text(let text):
                let characters = Array(text)
                var index = 0
                while index < characters.count {
                    let start = index
                    let kind = Kind(characters, index)
                    while index < characters.count, Kind(characters, index) == kind { index += 1 }
                    let run = String(characters[start..<index])
                    tokens.append(kind == .word ? .word(run) : kind == .space ? .space(run) : .other(run))
                }
            }
        }
        return tokens
    }

    /// Pieces again: adjacent text joined, arguments kept atomic.
    static func join(_ tokens: [InflectionToken]) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        for token in tokens {
            switch token {
            case .word(let part), .space(let part), .other(let part):
                text += part
            case .argument(let index):
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(.argument(index))
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    private enum Kind {
        case word, space, other

        init(_ characters: [Character], _ index: Int) {
            let character = characters[index]
            if character.isLetter || character.isNumber {
                self = .word
            } else if character.isWhitespace {
                self = .space
            } else if character == "'" || character == "\u{2019}", index > 0, index + 1 < characters.count,
                characters[index - 1].isLetter, characters[index + 1].isLetter
            {
                self = .word
            } else {
                self = .other
            }
        }
    }
}
