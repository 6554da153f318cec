import Foundation

extension QuickWrite {
    /// Deletes `object` (thawed) in a quick write; nothing for an unmanaged or deleted object.
    static func delete(_ object: ObjectBase) {
        guard object.realm != nil, !object.isInvalidated else { return }
        guard let live = object.realm?.isFrozen == true ? object.strataThawed() : object else { return }
        perform(in: live.realm) { live.realm?.delete(live) }
    }
}
