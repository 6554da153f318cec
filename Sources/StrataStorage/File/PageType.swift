/// The kind of a page, stored in byte 12 of its header.
enum PageType: UInt8 {
    case meta = 1
    case branch = 2
    case leaf = 3
    case overflow = 4
    case freeList = 5
    case commitList = 6
    case area = 7
}
