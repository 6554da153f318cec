import Foundation
import Strata

/// Lists and sets of values, for `Results` of values and their aggregates.
class Scoreboard: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var scores: List<Int>
    @Persisted var weights: List<Double>
    @Persisted var names: List<String>
    @Persisted var maybeScores: List<Int?>
    @Persisted var prices: List<Decimal128>
    @Persisted var levels: MutableSet<Int>
    @Persisted var words: MutableSet<String>
    @Persisted var byLevel: Map<String, Int>
    @Persisted var pets: Map<String, Dog?>
}
