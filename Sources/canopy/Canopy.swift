import ArgumentParser

@main
struct Canopy: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "canopy", abstract: "Canopy command-line client.")
}
