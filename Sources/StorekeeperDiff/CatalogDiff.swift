/// What a catalog change does to users who already bought (placeholder: filled in by issue 7).
public struct CatalogDiff: Sendable {}
