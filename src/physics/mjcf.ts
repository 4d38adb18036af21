/** Helpers to write MJCF text from numbers without float noise, and to assemble a model. */

/** A number as MJCF text (6 decimals, no trailing zeros). */
export function num(x: number): string {
  return Number(x.toFixed(6)).toString();
}

/** A vector as MJCF text. */
export function vec(xs: readonly number[]): string {
  return xs.map(num).join(" ");
}

/** The parts of one MJCF model. */
export interface MjcfParts {
  name: string;
  /** Physics timestep in seconds (the family's physics rate). */
  timestep: number;
  options?: string;
  /** Attributes of `<option><flag>` (e.g. `midphase="disable"`); why each is set belongs beside it. */
  flags?: string;
  defaults?: string;
  worldbody: string[];
  equality?: string[];
  actuator?: string[];
  contact?: string[];
  sensor?: string[];
}

/** Assemble an MJCF document. Elliptic cones and a high impratio make friction grasps hold. */
export function mjcf(parts: MjcfParts): string {
  const section = (tag: string, items?: string[]) =>
    items && items.length > 0 ? `<${tag}>\n${items.join("\n")}\n</${tag}>` : "";
  return `<mujoco model="${parts.name}">
<compiler angle="radian" autolimits="true"/>
<option timestep="${num(parts.timestep)}" cone="elliptic" impratio="10" ${parts.options ?? ""}>${parts.flags ? `<flag ${parts.flags}/>` : ""}</option>
${parts.defaults ? `<default>${parts.defaults}</default>` : ""}
<worldbody>
${parts.worldbody.join("\n")}
</worldbody>
${section("contact", parts.contact)}
${section("equality", parts.equality)}
${section("actuator", parts.actuator)}
${section("sensor", parts.sensor)}
</mujoco>`;
}
