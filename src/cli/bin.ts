#!/usr/bin/env node
/** The `longhaul` executable: one CLI invocation on this process's arguments and streams. */
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2));
