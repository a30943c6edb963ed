/// The JSON Schema of the catalog format (placeholder: filled in by issue 7).
public enum CatalogSchema {}
