/** longhaul's version, read from package.json so logs and --version agree. */
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** The package version. */
export const VERSION: string = pkg.version;
