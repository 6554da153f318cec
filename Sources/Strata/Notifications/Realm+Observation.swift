import Foundation
internal import StrataCore

extension Realm {
    /// Whether reading managed objects and collections registers the reads with Swift's
    /// Observation framework, so that `withObservationTracking` (or `Observations`, or a SwiftUI
    /// view body) is told when a commit from any thread or process changes what it read.
    ///
    /// ```swift
    /// Realm.isObservationTrackingEnabled = true
    /// withObservationTracking {
    ///     print(dog.name, person.dogs.count)
    /// } onChange: {
    ///     print("a commit changed the dog's name or the person's dogs")
    /// }
    /// ```
    ///
    /// Off until set, or until a property wrapper (`@ObservedResults`, `@ObservedRealmObject`,
    /// `@StateRealmObject`, `@ObservedSectionedResults`) is first made; it then stays on for the
    /// process. While off, a read costs one atomic load more than it did; while on, a read
    /// made outside any tracking costs a few instructions more (reading Observation's
    /// thread-local: is a tracking running on this thread?; about two hundred where that
    /// thread-local cannot be found and Observation is asked instead), and a read inside a
    /// tracking is recorded and reported to Observation.
    ///
    /// What a read registers: a property of an object (live or frozen), changed or deleted by a
    /// later commit; `List`, `MutableSet` and `Map` properties as properties of their object; a
    /// `Results` or `LinkingObjects` read (count, iteration, elements) as its whole class, changed
    /// by a commit that inserts, deletes or modifies any object of that class. `onChange` runs
    /// on the file's notifier thread, after the commit.
    ///
    /// ## Concurrency
    /// May be set from any thread.
    public static var isObservationTrackingEnabled: Bool {
        get { ObservationGate.isOpen }
        set { ObservationGate.set(newValue) }
    }

    /// Registers a read of property `index` of the object `state` with Observation, when enabled.
    @inline(__always)
    func noteRead(_ state: ManagedObjectState, _ index: Int) {
        if ObservationGate.isOpen { observeRead(state, index) }
    }

    /// Registers a read of every object of class `type` with Observation, when enabled.
    @inline(__always)
    func noteTableRead(_ type: ObjectBase.Type?) {
        if ObservationGate.isOpen, let type { observeTableRead(type) }
    }

    /// Registers a read of every object of the class named `className`, when enabled.
    @inline(__always)
    func noteTableRead(className: String?) {
        if ObservationGate.isOpen, let className { observeTableRead(className: className) }
    }

    @inline(never)
    private func observeRead(_ state: ManagedObjectState, _ index: Int) {
        if ObservationGate.readIsTracked { recordRead(state, index) }
    }

    /// Records a tracked read; apart from ``observeRead(_:_:)`` so that the untracked read,
    /// the common case, runs a small function.
    @inline(never)
    private func recordRead(_ state: ManagedObjectState, _ index: Int) {
        let binding = state.binding
        guard index >= 0, index < binding.columns.count else { return }
        let file = self.file
        file.observationHub.access(
            ObservationSlot(table: binding.table.name, key: state.key, column: binding.columns[index]), file: file,
            configuration: self.configuration)
    }

    @inline(never)
    private func observeTableRead(_ type: ObjectBase.Type) {
        guard ObservationGate.readIsTracked, let binding = binding(for: type) else { return }
        observeTableRead(binding)
    }

    @inline(never)
    private func observeTableRead(className: String) {
        guard ObservationGate.readIsTracked, let binding = binding(named: className) else { return }
        observeTableRead(binding)
    }

    private func observeTableRead(_ binding: TableBinding) {
        let file = self.file
        file.observationHub.access(
            ObservationSlot(table: binding.table.name, key: nil, column: nil), file: file,
            configuration: self.configuration)
    }
}
