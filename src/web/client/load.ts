/**
 * Loading data documents: a script tag per document (data/<key>.js calls longhaulData), so the
 * page works over HTTP and from file:// alike. Documents are cached; episode documents (the
 * large ones) only the last few.
 */
import { DATA_CALLBACK } from "../model/documents.ts";

const waiting = new Map<string, { resolve: (doc: unknown) => void; reject: (e: Error) => void }>();
const cache = new Map<string, Promise<unknown>>();
/** Episode documents kept at once. */
const KEEP_EPISODES = 12;

(window as unknown as Record<string, unknown>)[DATA_CALLBACK] = (key: string, json: string) => {
  const pending = waiting.get(key);
  if (!pending) return;
  waiting.delete(key);
  try {
    pending.resolve(JSON.parse(json));
  } catch (error) {
    pending.reject(error as Error);
  }
};

/** The document under `key`, loaded once. */
export function load<T>(key: string): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit as Promise<T>;
  const promise = new Promise<unknown>((resolve, reject) => {
    waiting.set(key, { resolve, reject });
    const script = document.createElement("script");
    script.src = `data/${key}.js`;
    script.onload = () => {
      script.remove();
      if (waiting.delete(key)) reject(new Error(`data/${key}.js did not deliver its document`));
    };
    script.onerror = () => {
      script.remove();
      waiting.delete(key);
      cache.delete(key);
      reject(new Error(`could not load data/${key}.js`));
    };
    document.head.appendChild(script);
  });
  cache.set(key, promise);
  if (key.includes("/episode/")) {
    const episodes = [...cache.keys()].filter((k) => k.includes("/episode/"));
    for (const old of episodes.slice(0, Math.max(0, episodes.length - KEEP_EPISODES))) {
      cache.delete(old);
    }
  }
  return promise as Promise<T>;
}
