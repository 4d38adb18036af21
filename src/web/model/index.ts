/** The viewer's data layer, shared by the server, the export and the page: no I/O, no DOM. */
export * from "./diff.ts";
export * from "./documents.ts";
export * from "./filters.ts";
export * from "./graph-layout.ts";
