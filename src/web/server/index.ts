/** Public surface of the viewer's server side: the run catalog, the HTTP server, the static export. */
export { type CatalogOptions, findRunDirs, RunCatalog } from "./catalog.ts";
export { bundleClient, type PageFiles, pageFiles } from "./client-bundle.ts";
export { type ExportSummary, exportSite } from "./export.ts";
export { startViewer, type ViewerServer } from "./http.ts";
