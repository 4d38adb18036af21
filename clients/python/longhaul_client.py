"""A Gymnasium-like client for `longhaul serve`, using only Python's standard library.

    from longhaul_client import Env, tool

    env = Env("http://127.0.0.1:8000", suite="robograph", task="cosmetics-t03/i5")
    observation, info = env.reset(seed=0)          # info["card"]: the task card (tools, rules)
    observation, reward, terminated, truncated, info = env.step(tool("observe"))
    env.close()                                    # abandons the episode if it is still open
    print(env.result())                            # the verdict and the record, once done

Episodes are kept alive on the server by their id (OpenEnv's POST /reset and POST /step with
`episode_id`); every finished episode is recorded in the server's run directory. Actions are
longhaul Actions as JSON (`longhaul schema Action`): `tool(name, **args)`, `finish(answer)`,
`say(text)`, `wait()`. Errors come back as LonghaulError with the server's code, message and
the path of the field that was wrong.

Run this file to play one example episode: `python3 longhaul_client.py --url URL --suite
robograph --task cosmetics-t03/i5`.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Optional, Tuple

__all__ = ["Env", "LonghaulError", "tool", "finish", "say", "wait"]


class LonghaulError(Exception):
    """An error answer of the server: HTTP status, code (e.g. NOT_FOUND) and the bad field."""

    def __init__(self, status: int, code: str, message: str, path: Optional[str] = None):
        super().__init__(f"{code} ({status}): {message}" + (f" [{path}]" if path else ""))
        self.status = status
        self.code = code
        self.message = message
        self.path = path


def tool(name: str, robot: Optional[str] = None, **args: Any) -> Dict[str, Any]:
    """An action calling one tool of the card (addressed to `robot` when the tool needs one)."""
    call: Dict[str, Any] = {"tool": name, "args": args}
    if robot is not None:
        call["robot"] = robot
    return {"kind": "tool", "calls": [call]}


def finish(answer: Optional[str] = None) -> Dict[str, Any]:
    """An action ending the episode, with an answer when the task asks for one."""
    return {"kind": "finish", **({"answer": answer} if answer is not None else {})}


def say(text: str) -> Dict[str, Any]:
    """An action saying something instead of acting."""
    return {"kind": "say", "text": text}


def wait() -> Dict[str, Any]:
    """An action letting simulated time pass."""
    return {"kind": "wait"}


class Env:
    """One longhaul task as a Gymnasium-like environment: reset, step, close."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        suite: Optional[str] = None,
        task: Optional[str] = None,
        subset: Optional[str] = None,
        token: Optional[str] = None,
        access: Optional[str] = None,
        agent: str = "python",
        timeout: float = 60.0,
    ):
        self.base_url = base_url.rstrip("/")
        self.suite = suite
        self.task = task
        self.subset = subset
        self.token = token
        self.access = access
        self.agent = agent
        self.timeout = timeout
        self.episode_id: Optional[str] = None
        self.card: Optional[Dict[str, Any]] = None
        self.done = False

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"content-type": "application/json", "accept": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            try:
                error = json.loads(text)
            except ValueError:
                error = {"code": "HTTP_ERROR", "message": text}
            raise LonghaulError(e.code, error.get("code", "HTTP_ERROR"), error.get("message", text), error.get("path")) from None

    def _episode_path(self, tail: str = "") -> str:
        if self.episode_id is None:
            raise RuntimeError("no episode: call reset() first")
        return "/episodes/" + urllib.parse.quote(self.episode_id, safe="") + tail

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Start a new episode (closing the open one): the first observation and info (card, episode_id)."""
        if self.episode_id is not None and not self.done:
            self.close()
        body: Dict[str, Any] = {"agent": self.agent}
        for key, value in (("suite", self.suite), ("task_id", self.task), ("subset", self.subset), ("access", self.access), ("seed", seed)):
            if value is not None:
                body[key] = value
        body.update(options or {})
        answer = self._request("POST", "/reset", body)
        info = answer["metadata"]
        self.episode_id = info["episode_id"]
        self.card = info.get("card")
        self.done = answer["done"]
        return answer["observation"], info

    def step(self, action: Dict[str, Any]) -> Tuple[Dict[str, Any], float, bool, bool, Dict[str, Any]]:
        """Apply one action: observation, reward, terminated, truncated, info (as Gymnasium's step)."""
        if self.episode_id is None:
            raise RuntimeError("no episode: call reset() first")
        answer = self._request("POST", "/step", {"episode_id": self.episode_id, "action": action})
        info = answer["metadata"]
        self.done = answer["done"]
        truncated = bool(info.get("truncated"))
        terminated = self.done and not truncated
        return answer["observation"], float(answer["reward"] or 0.0), terminated, truncated, info

    def state(self) -> Dict[str, Any]:
        """The public state of the episode: id, step count, simulated time, done."""
        return self._request("GET", self._episode_path())

    def result(self) -> Dict[str, Any]:
        """The return so far, and once done the verdict, the metrics and the record."""
        return self._request("GET", self._episode_path("/result"))

    def close(self) -> None:
        """Finish the open episode (recorded as abandoned if it had not ended)."""
        if self.episode_id is not None and not self.done:
            self._request("DELETE", self._episode_path())
            self.done = True

    def tasks(self, subset: Optional[str] = None) -> list:
        """The tasks the server offers for this env's suite (ids, families, tags)."""
        query = {k: v for k, v in (("suite", self.suite), ("subset", subset or self.subset)) if v}
        return self._request("GET", "/tasks?" + urllib.parse.urlencode(query))["tasks"]

    def __enter__(self) -> "Env":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def main(argv: Optional[list] = None) -> int:
    """Play one episode: look around, use the first tool of the card once, then finish."""
    parser = argparse.ArgumentParser(description="play one longhaul episode over HTTP")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--suite")
    parser.add_argument("--task")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--token")
    args = parser.parse_args(argv)
    try:
        with Env(args.url, suite=args.suite, task=args.task, token=args.token, agent="python-example") as env:
            observation, info = env.reset(seed=args.seed)
            card = info["card"]
            print(f"episode {env.episode_id}: {card['title']} ({len(card['tools'])} tools)", file=sys.stderr)
            total = 0.0
            steps = 0
            terminated = truncated = False
            if "tool" in card["modes"] and card["tools"]:
                observation, reward, terminated, truncated, info = env.step(tool(card["tools"][0]["name"]))
                total += reward
                steps += 1
            if not (terminated or truncated):
                observation, reward, terminated, truncated, info = env.step(finish())
                total += reward
                steps += 1
            result = env.result()
    except LonghaulError as e:
        print(f"longhaul_client: {e}", file=sys.stderr)
        return 1
    print(json.dumps({
        "episode_id": env.episode_id,
        "steps": steps,
        "return": total,
        "terminated": terminated,
        "truncated": truncated,
        "done": result["done"],
        "status": result["record"]["status"],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
