/**
 * The built-in providers' default endpoints, passed explicitly so OPENAI_BASE_URL or
 * ANTHROPIC_BASE_URL in the environment never redirect a run silently. A file of its own so
 * the registry can name them without loading an SDK.
 */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
