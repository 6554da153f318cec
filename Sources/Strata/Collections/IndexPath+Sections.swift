import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
    /// The section and item of an index path into `SectionedResults`, as UIKit and AppKit
    /// declare them on Apple platforms (where this extension is not compiled): the first index is
    /// the section, the second the item within it.
    extension IndexPath {
        /// An index path to item `item` of section `section`.
        public init(item: Int, section: Int) {
            self.init(indexes: [section, item])
        }

        /// The section: the first index.
        public var section: Int {
            get { self[0] }
            set { self[0] = newValue }
        }

        /// The item within the section: the second index.
        public var item: Int {
            get { self[1] }
            set { self[1] = newValue }
        }
    }
#endif
