import Strata

/// A model class with subclasses: Swift gives the subclasses Animal's conformance, so its
/// members answer for the class they are asked for.
public class Animal: Object {
    @Persisted(primaryKey: true) public var id = 0
    @Persisted public var name = ""

    public override class func propertiesMapping() -> [String: String] {
        ["name": "animal_name"]
    }
}

public class Cat: Animal {
    @Persisted public var lives = 9 {
        didSet { print("lives: \(oldValue) -> \(lives)") }
    }
}

public final class Kitten: Cat {
    @Persisted public var weeks = 0
}
