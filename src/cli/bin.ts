#!/usr/bin/env node
/** The `longhaul` executable: one CLI invocation on this process's arguments and streams. */
import { main } from "./main.ts";
import { relaunchWithNodeFlags } from "./relaunch.ts";

// A reader that stops early (`longhaul agents | head`) closes the pipe: stop quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});
process.exitCode = await main(process.argv.slice(2), undefined, relaunchWithNodeFlags);
