/** Public surface of the viewer (`longhaul view`): its data layer and its server side. */
export * from "./model/index.ts";
export * from "./server/index.ts";
