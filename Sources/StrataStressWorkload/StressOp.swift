/// One change a commit makes to the `data` tree.
public enum StressOp: Equatable {
    case put(key: [UInt8], value: [UInt8])
    case delete(key: [UInt8])
}
