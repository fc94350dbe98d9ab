import ArgumentParser

/// canopy: the command-line client of canopyd.
@main
struct Canopy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "canopy",
        abstract: "Create, edit, watch and inspect the view trees of a canopyd daemon.",
        discussion: """
            Every command connects to the daemon at --url (or $CANOPY_URL; default ws://127.0.0.1:7700/ws) and, \
            when the daemon has tokens, authenticates with --token (or $CANOPY_TOKEN).
            """,
        subcommands: [
            List.self, Create.self, Import.self, Run.self, Event.self, Delete.self, Watch.self, Edit.self, Probe.self,
            History.self, Load.self,
        ])
}
