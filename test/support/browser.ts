/**
 * Debian's Chromium driven by playwright-core, for the viewer's browser tests. CI installs it
 * (.ci/run: apt-get install chromium); each launch gets a fresh profile directory.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Where Debian installs Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether Chromium is installed (the browser tests are skipped, loudly, when it is not). */
export const hasChromium = existsSync(CHROMIUM);

/**
 * A headless Chromium with a throwaway profile (playwright passes it as --user-data-dir);
 * close() removes the profile too.
 */
export async function launchChromium(): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const profile = mkdtempSync(join(tmpdir(), "longhaul-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
