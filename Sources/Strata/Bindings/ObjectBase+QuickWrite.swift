import Foundation

extension ObjectBase {
    /// The live version of a frozen object (self when live or unmanaged); nil when it was
    /// deleted since. A frozen object newer than the live realm's version (the property wrappers
    /// freeze the newest version) refreshes the live realm first, as the write it is thawed
    /// for would.
    func strataThawed() -> ObjectBase? {
        guard let state = _strataManaged, state.realm.isFrozen else { return self }
        let live = state.realm.thaw()
        guard !live.isFrozen else { return nil }
        if live.currentRow(state.binding, state.key) == nil {
            guard !live.isInWriteTransaction, live.refresh(), live.currentRow(state.binding, state.key) != nil else {
                return nil
            }
        }
        return live.object(state.binding, key: state.key)
    }
}
