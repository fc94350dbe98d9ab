/// The class instances whose stored properties were assigned while a program tree's transaction ran, each with its
/// properties before the first assignment: the tree stores the new ones with the transaction and, when the
/// transaction faults, puts the old ones back (nothing changes, objects included).
package final class ObjectWrites {
    /// In the order of their first assignment.
    package private(set) var changed: [(object: Instance, before: [Value])] = []
    private var seen: Set<ObjectIdentifier> = []

    package init() {}

    /// `o` is about to have a property assigned.
    @inline(__always)
    package func note(_ o: Instance) {
        if seen.insert(ObjectIdentifier(o)).inserted { changed.append((o, o.fields)) }
    }

    /// Puts every object's properties back as they were before the first assignment, and forgets them.
    package func undo() {
        for (o, before) in changed.reversed() { o.fields = before }
        forget()
    }

    package func forget() {
        changed = []
        seen = []
    }
}
