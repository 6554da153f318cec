import Foundation
import Strata

// Stand-ins for the SwiftUI controls of seed 002's views, so that the views' binding lines
// compile on Linux as written: each keeps what it was given and "types" or "taps" on request.

/// `TextField(_:text:)`: typing sets the bound text.
struct TextField {
    let title: String
    let text: Binding<String>

    init(_ title: String, text: Binding<String>) {
        self.title = title
        self.text = text
    }

    /// The user replaces the field's text.
    func type(_ newText: String) {
        text.wrappedValue = newText
    }
}

/// `ForEach(...).onDelete(perform:)`: a swipe to delete calls the action with the row's offset.
struct DeletableRows {
    var action: ((IndexSet) -> Void)?

    func onDelete(perform action: @escaping (IndexSet) -> Void) -> DeletableRows {
        DeletableRows(action: action)
    }

    /// The user deletes row `row`.
    func swipeToDelete(row: Int) {
        action?(IndexSet(integer: row))
    }
}
