// Placeholder until the schema compiler lands (issue 3).
enum StrataSchemaKitPlaceholder {}
