/// Ends a query's matches once `--limit` objects were printed.
struct LimitReached: Error {}
