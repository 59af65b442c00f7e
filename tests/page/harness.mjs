// Shared set-up of the page tests: the static server and Debian's Chromium.
import { mkdir } from "node:fs/promises";
import { chromium } from "playwright-core";
import { serve } from "../../tools/serve.mjs";

/** Where screenshots go, for a person to look at. */
export const SHOTS = "target/page";

/** Starts the server on a free port and Chromium; returns {server, base, browser}. */
export async function start() {
  const { server, url } = await serve("www", 0);
  await mkdir(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  return { server, base: url, browser };
}
