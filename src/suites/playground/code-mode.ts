/**
 * Code mode (the paper's agents write control programs against the environment SDK, §3.1 and
 * §6.1): a JavaScript program runs in a QuickJS WebAssembly sandbox (no host access, no
 * network, no clock) whose only bridge to the world is `call(name, args)`. The episode's action
 * and simulated-time budgets are enforced by the environment behind that bridge; the wall
 * budget and a memory cap by the sandbox itself.
 */
import type { QuickJSWASMModule } from "quickjs-emscripten";
import type { Json } from "../../core/index.ts";

let quickjs: Promise<QuickJSWASMModule> | undefined;

/** The process-wide QuickJS module (loaded once). */
export function loadSandbox(): Promise<QuickJSWASMModule> {
  quickjs ??= import("quickjs-emscripten").then(({ getQuickJS }) => getQuickJS());
  return quickjs;
}

/** The SDK a program sees; each function is one bridge call. */
export const SANDBOX_PRELUDE = `
const __log = [];
const console = { log: (...a) => { __log.push(a.map((x) => typeof x === "string" ? x : JSON.stringify(x)).join(" ")); } };
function call(name, args) {
  const r = JSON.parse(__call(name, JSON.stringify(args === undefined ? {} : args)));
  if (r.error) throw new Error(r.error);
  return r.result;
}
const observe = () => call("observe", {});
const step = (command, periods) => call("step", Object.assign({}, command, periods ? { periods } : {}));
const wait = (seconds) => call("wait", { seconds });
const tool = (name, args) => call(name, args);
`;

/** Outcome of one program. */
export interface ProgramResult {
  ok: boolean;
  /** The program's completion value (JSON), when it ran to the end. */
  value?: Json;
  /** Why it stopped early: a thrown error, the wall budget, the memory cap. */
  error?: string;
  log: string[];
  bridgeCalls: number;
}

/** Limits of one program run. */
export interface SandboxLimits {
  /** Wall-clock deadline (epoch milliseconds). */
  deadlineMs: number;
  memoryBytes?: number;
  /** Maximum log lines kept. */
  maxLog?: number;
}

/**
 * Run `code` with `bridge` answering its calls. The bridge returns `{result}` or `{error}`;
 * an `{error, fatal: true}` answer (the episode ended) aborts the program.
 */
export function runProgram(
  qjs: QuickJSWASMModule,
  code: string,
  bridge: (name: string, args: unknown) => { result?: Json; error?: string; fatal?: boolean },
  limits: SandboxLimits,
): ProgramResult {
  const runtime = qjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes ?? 64 * 1024 * 1024);
  runtime.setMaxStackSize(1024 * 1024);
  let wallExceeded = false;
  // Date.now is the supervisor's clock, outside the sandbox; the program never sees it.
  runtime.setInterruptHandler(() => {
    if (Date.now() > limits.deadlineMs) wallExceeded = true;
    return wallExceeded;
  });
  const vm = runtime.newContext();
  let bridgeCalls = 0;
  let fatal: string | undefined;
  try {
    const fn = vm.newFunction("__call", (nameHandle, argsHandle) => {
      bridgeCalls++;
      if (fatal) return vm.newString(JSON.stringify({ error: fatal }));
      const name = vm.getString(nameHandle);
      let args: unknown;
      try {
        args = JSON.parse(vm.getString(argsHandle));
      } catch {
        return vm.newString(JSON.stringify({ error: "arguments are not JSON" }));
      }
      const answer = bridge(name, args);
      if (answer.fatal) {
        fatal = answer.error ?? "the episode ended";
        throw new Error(fatal);
      }
      return vm.newString(JSON.stringify(answer));
    });
    vm.setProp(vm.global, "__call", fn);
    fn.dispose();
    const result = vm.evalCode(`${SANDBOX_PRELUDE}\n;(function(){\n${code}\n})()`, "program.js");
    const log = readLog(vm, limits.maxLog ?? 200);
    if (result.error) {
      const err = vm.dump(result.error) as { message?: string } | string;
      result.error.dispose();
      const message = wallExceeded
        ? "wall-clock budget exhausted (interrupted)"
        : (fatal ?? (typeof err === "string" ? err : (err?.message ?? JSON.stringify(err))));
      return { ok: false, error: message, log, bridgeCalls };
    }
    const value = vm.dump(result.value) as Json;
    result.value.dispose();
    return { ok: true, value: value === undefined ? null : value, log, bridgeCalls };
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

function readLog(vm: ReturnType<QuickJSWASMModule["newContext"]>, max: number): string[] {
  const result = vm.evalCode("JSON.stringify(__log)");
  if (result.error) {
    result.error.dispose();
    return [];
  }
  const lines = JSON.parse(vm.getString(result.value)) as string[];
  result.value.dispose();
  return lines.length > max ? [...lines.slice(0, max), `... ${lines.length - max} more`] : lines;
}
