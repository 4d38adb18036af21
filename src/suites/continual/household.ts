/**
 * The household the tasks live in: object kinds (what each affords, its attributes, the
 * functional names task descriptions use for it), room templates with their furniture and
 * objects, and four apartments (scenes) built from them. This stands in for TongSim's indoor
 * scenes (paper §3.1): what matters to the benchmark is which objects a room holds and which
 * atomic actions they support.
 */

/** Engine node types the household uses. */
export type KindType = "furniture" | "container" | "surface" | "object";

/** Where an object sits relative to eye height (the child and adult viewpoints describe it). */
export type Level = "low" | "mid" | "high";

/** One kind of household object. */
export interface ObjectKind {
  name: string;
  /** Functional or contextual references (Stage 1: "table lamp" -> "reading light"). */
  refs: string[];
  type: KindType;
  affordances: string[];
  /** Attributes the kind has, with their usual value (tasks may set the opposite). */
  attrs: Record<string, boolean>;
  level: Level;
  /** How a `turn` goal on this kind is phrased (taps run, knobs turn). */
  turnPhrase?: string;
}

const k = (
  name: string,
  refs: string[],
  type: KindType,
  affordances: string[],
  attrs: Record<string, boolean>,
  level: Level,
  extra: Partial<ObjectKind> = {},
): ObjectKind => ({ name, refs, type, affordances, attrs, level, ...extra });

/** Every object kind, by id. */
export const KINDS: Record<string, ObjectKind> = {
  ceiling_light: k(
    "ceiling light",
    ["overhead light", "ceiling fixture", "main light"],
    "furniture",
    ["switchable"],
    { on: true },
    "high",
  ),
  floor_lamp: k(
    "floor lamp",
    ["standing lamp", "corner light"],
    "furniture",
    ["switchable"],
    { on: false },
    "mid",
  ),
  table_lamp: k(
    "table lamp",
    ["bedside lamp", "reading light"],
    "furniture",
    ["switchable"],
    { on: true },
    "mid",
  ),
  desk_lamp: k(
    "desk lamp",
    ["work light", "task lamp"],
    "furniture",
    ["switchable"],
    { on: false },
    "mid",
  ),
  chandelier: k(
    "chandelier",
    ["dining light", "hanging light"],
    "furniture",
    ["switchable"],
    { on: false },
    "high",
  ),
  mirror_light: k(
    "mirror light",
    ["vanity light", "light above the mirror"],
    "furniture",
    ["switchable"],
    { on: false },
    "high",
  ),
  television: k(
    "television",
    ["TV screen", "entertainment screen", "big screen"],
    "furniture",
    ["switchable"],
    { on: false },
    "mid",
  ),
  air_conditioner: k(
    "air conditioner",
    ["AC unit", "cooling unit"],
    "furniture",
    ["switchable"],
    { on: true },
    "high",
  ),
  radio: k(
    "radio",
    ["music player", "little radio"],
    "furniture",
    ["switchable"],
    { on: false },
    "mid",
  ),
  computer: k(
    "computer",
    ["desktop computer", "workstation"],
    "furniture",
    ["switchable"],
    { on: false },
    "mid",
  ),
  coffee_machine: k(
    "coffee machine",
    ["coffee maker", "espresso machine"],
    "furniture",
    ["switchable"],
    { on: false },
    "mid",
  ),
  range_hood: k(
    "range hood",
    ["extractor fan", "cooker hood"],
    "furniture",
    ["switchable"],
    { on: false },
    "high",
  ),
  exhaust_fan: k(
    "exhaust fan",
    ["bathroom fan", "vent fan"],
    "furniture",
    ["switchable"],
    { on: false },
    "high",
  ),
  microwave: k(
    "microwave",
    ["microwave oven"],
    "container",
    ["switchable", "openable", "contain"],
    { on: false, open: false },
    "mid",
  ),
  media_cabinet: k(
    "media cabinet",
    ["TV cabinet", "storage cabinet under the screen"],
    "container",
    ["openable", "contain"],
    { open: false },
    "low",
  ),
  window: k(
    "window",
    ["window pane", "window by the wall"],
    "furniture",
    ["openable"],
    { open: false },
    "mid",
  ),
  wardrobe: k(
    "wardrobe",
    ["closet", "clothes cabinet"],
    "container",
    ["openable", "contain"],
    { open: false },
    "mid",
  ),
  bedside_cabinet: k(
    "bedside cabinet",
    ["nightstand drawer", "bedside drawer"],
    "container",
    ["openable", "contain", "support"],
    { open: false },
    "low",
  ),
  study_desk: k(
    "study desk",
    ["desk drawer", "writing desk"],
    "container",
    ["openable", "contain", "support"],
    { open: false },
    "mid",
  ),
  kitchen_cabinet: k(
    "kitchen cabinet",
    ["cupboard", "upper cabinet"],
    "container",
    ["openable", "contain"],
    { open: false },
    "high",
  ),
  kitchen_drawer: k(
    "kitchen drawer",
    ["cutlery drawer", "utensil drawer"],
    "container",
    ["openable", "contain"],
    { open: false },
    "low",
  ),
  fridge: k(
    "fridge",
    ["refrigerator", "cold storage"],
    "container",
    ["openable", "contain"],
    { open: false },
    "mid",
  ),
  filing_cabinet: k(
    "filing cabinet",
    ["file drawer", "document cabinet"],
    "container",
    ["openable", "contain"],
    { open: false },
    "low",
  ),
  bathroom_cabinet: k(
    "bathroom cabinet",
    ["mirror cabinet", "medicine cabinet"],
    "container",
    ["openable", "contain"],
    { open: false },
    "high",
  ),
  sideboard: k(
    "sideboard",
    ["dish cabinet", "buffet cabinet"],
    "container",
    ["openable", "contain", "support"],
    { open: false },
    "low",
  ),
  electric_kettle: k(
    "electric kettle",
    ["kettle", "water boiler"],
    "furniture",
    ["pluggable"],
    { plugged: false },
    "mid",
  ),
  toaster: k("toaster", ["bread toaster"], "furniture", ["pluggable"], { plugged: true }, "mid"),
  phone_charger: k(
    "phone charger",
    ["charging cable", "charger"],
    "furniture",
    ["pluggable"],
    { plugged: false },
    "low",
  ),
  laptop_charger: k(
    "laptop charger",
    ["power adapter", "laptop cable"],
    "furniture",
    ["pluggable"],
    { plugged: false },
    "low",
  ),
  hair_dryer: k(
    "hair dryer",
    ["blow dryer", "dryer"],
    "furniture",
    ["pluggable"],
    { plugged: true },
    "mid",
  ),
  desk_fan: k(
    "desk fan",
    ["small fan", "electric fan"],
    "furniture",
    ["pluggable"],
    { plugged: false },
    "mid",
  ),
  blender: k(
    "blender",
    ["smoothie blender", "mixer"],
    "furniture",
    ["pluggable"],
    { plugged: false },
    "mid",
  ),
  printer: k("printer", ["office printer"], "furniture", ["pluggable"], { plugged: true }, "mid"),
  electric_toothbrush: k(
    "electric toothbrush",
    ["toothbrush charger", "toothbrush base"],
    "furniture",
    ["pluggable"],
    { plugged: false },
    "mid",
  ),
  faucet: k("faucet", ["tap", "sink tap"], "furniture", ["turnable"], { turned: false }, "mid", {
    turnPhrase: "get the {ref} running",
  }),
  stove_knob: k(
    "stove knob",
    ["burner knob", "cooker dial"],
    "furniture",
    ["turnable"],
    { turned: false },
    "mid",
    { turnPhrase: "turn the {ref} to low" },
  ),
  radiator_valve: k(
    "radiator valve",
    ["heater valve", "radiator dial"],
    "furniture",
    ["turnable"],
    { turned: false },
    "low",
    { turnPhrase: "turn up the {ref}" },
  ),
  shower_valve: k(
    "shower valve",
    ["shower handle", "shower tap"],
    "furniture",
    ["turnable"],
    { turned: false },
    "mid",
    { turnPhrase: "get the {ref} running" },
  ),
  coffee_table: k(
    "coffee table",
    ["low table", "table by the sofa"],
    "surface",
    ["support"],
    {},
    "low",
  ),
  dining_table: k("dining table", ["table", "dinner table"], "surface", ["support"], {}, "mid"),
  kitchen_counter: k(
    "kitchen counter",
    ["countertop", "work surface"],
    "surface",
    ["support"],
    {},
    "mid",
  ),
  cutting_board: k("cutting board", ["chopping board"], "surface", ["support"], {}, "mid"),
  dish_rack: k("dish rack", ["drying rack"], "surface", ["support"], {}, "mid"),
  bookshelf: k("bookshelf", ["shelf", "bookcase"], "surface", ["support"], {}, "high"),
  bed: k("bed", ["mattress"], "surface", ["support"], {}, "low"),
  desk: k("desk", ["work desk", "office desk"], "surface", ["support"], {}, "mid"),
  bathroom_shelf: k(
    "bathroom shelf",
    ["wall shelf", "shelf by the sink"],
    "surface",
    ["support"],
    {},
    "high",
  ),
  sink: k("sink", ["basin", "wash basin"], "container", ["contain"], {}, "mid"),
  pen_holder: k(
    "pen holder",
    ["pencil cup", "desk organizer"],
    "container",
    ["contain"],
    {},
    "mid",
  ),
  fruit_bowl: k("fruit bowl", ["bowl on the table"], "container", ["contain"], {}, "mid"),
  trash_can: k(
    "trash can",
    ["bin", "waste bin", "rubbish bin"],
    "container",
    ["disposal", "contain"],
    {},
    "low",
  ),
  recycling_bin: k(
    "recycling bin",
    ["paper bin", "recycling box"],
    "container",
    ["disposal", "contain"],
    {},
    "low",
  ),
  laundry_basket: k(
    "laundry basket",
    ["hamper", "clothes basket"],
    "container",
    ["disposal", "contain"],
    {},
    "low",
  ),
  coat_rack: k("coat rack", ["coat stand", "rack by the door"], "furniture", ["hang"], {}, "high"),
  wall_hook: k("wall hook", ["hook", "hook on the wall"], "furniture", ["hang"], {}, "high"),
  towel_rack: k("towel rack", ["towel bar", "rail"], "furniture", ["hang"], {}, "mid"),
  sofa: k("sofa", ["couch"], "furniture", ["seat", "support"], { seated: false }, "low"),
  armchair: k(
    "armchair",
    ["reading chair"],
    "furniture",
    ["seat", "support"],
    { seated: false },
    "low",
  ),
  desk_chair: k(
    "desk chair",
    ["office chair"],
    "furniture",
    ["seat", "support"],
    { seated: false },
    "low",
  ),
  guest: k("guest", ["visitor", "your friend"], "furniture", ["receive"], {}, "mid"),
  grandmother: k(
    "grandmother",
    ["grandma", "your grandmother"],
    "furniture",
    ["receive"],
    {},
    "mid",
  ),
  child: k("child", ["your little brother", "the kid"], "furniture", ["receive"], {}, "low"),
  remote_control: k("remote control", ["remote", "TV remote"], "object", ["grabbable"], {}, "low"),
  magazine: k("magazine", ["old magazine", "glossy magazine"], "object", ["grabbable"], {}, "low"),
  book: k("book", ["novel", "hardcover book"], "object", ["grabbable"], {}, "mid"),
  notebook: k("notebook", ["notepad", "spiral notebook"], "object", ["grabbable"], {}, "mid"),
  pen: k("pen", ["ballpoint pen", "marker"], "object", ["grabbable"], {}, "mid"),
  jacket: k("jacket", ["coat", "light jacket"], "object", ["grabbable"], {}, "mid"),
  scarf: k("scarf", ["wool scarf"], "object", ["grabbable"], {}, "low"),
  towel: k("towel", ["bath towel", "hand towel"], "object", ["grabbable"], {}, "mid"),
  cup: k(
    "cup",
    ["teacup", "coffee cup"],
    "object",
    ["grabbable", "fillable"],
    { filled: false },
    "mid",
  ),
  glass: k(
    "glass",
    ["drinking glass", "tumbler"],
    "object",
    ["grabbable", "fillable"],
    { filled: false },
    "mid",
  ),
  mug: k(
    "mug",
    ["coffee mug", "tea mug"],
    "object",
    ["grabbable", "fillable"],
    { filled: false },
    "mid",
  ),
  plate: k("plate", ["dinner plate", "dish"], "object", ["grabbable"], {}, "mid"),
  bowl: k("bowl", ["soup bowl", "cereal bowl"], "object", ["grabbable"], {}, "mid"),
  napkin: k("napkin", ["paper napkin", "used napkin"], "object", ["grabbable"], {}, "mid"),
  empty_bottle: k(
    "empty bottle",
    ["plastic bottle", "used bottle"],
    "object",
    ["grabbable"],
    {},
    "low",
  ),
  water_pitcher: k(
    "water pitcher",
    ["jug", "water jug"],
    "object",
    ["grabbable", "pourable"],
    { filled: true },
    "mid",
  ),
  teapot: k(
    "teapot",
    ["pot of tea", "tea kettle"],
    "object",
    ["grabbable", "pourable"],
    { filled: true },
    "mid",
  ),
  knife: k("knife", ["kitchen knife", "bread knife"], "object", ["grabbable", "blade"], {}, "mid"),
  bread: k("bread", ["loaf", "loaf of bread"], "object", ["cuttable"], { cut: false }, "mid"),
  apple: k(
    "apple",
    ["red apple", "piece of fruit"],
    "object",
    ["grabbable", "cuttable"],
    { cut: false },
    "mid",
  ),
  cake: k("cake", ["birthday cake", "sponge cake"], "object", ["cuttable"], { cut: false }, "mid"),
  cheese: k(
    "cheese",
    ["block of cheese", "cheese wedge"],
    "object",
    ["cuttable"],
    { cut: false },
    "mid",
  ),
  toy_car: k("toy car", ["toy", "little toy car"], "object", ["grabbable"], {}, "low"),
  slippers: k(
    "slippers",
    ["house slippers", "pair of slippers"],
    "object",
    ["grabbable"],
    {},
    "low",
  ),
};

/** An object placed in a room template: on or in another node, or standing in the room. */
export interface Placement {
  id: string;
  kind: string;
  on?: string;
  in?: string;
}

/** A room template: its name and what stands in it. */
export interface RoomTemplate {
  name: string;
  objects: Placement[];
}

const o = (id: string, kind = id, where: { on?: string; in?: string } = {}): Placement => ({
  id,
  kind,
  ...where,
});

/** Room templates, by id. Ids of objects are unique within a room. */
export const ROOMS: Record<string, RoomTemplate> = {
  living_room: {
    name: "living room",
    objects: [
      o("ceiling_light"),
      o("floor_lamp"),
      o("television"),
      o("air_conditioner"),
      o("media_cabinet"),
      o("window"),
      o("coffee_table"),
      o("bookshelf"),
      o("sofa"),
      o("guest"),
      o("trash_can"),
      o("coat_rack"),
      o("desk_fan"),
      o("phone_charger"),
      o("radiator_valve"),
      o("radio"),
      o("laptop_charger"),
      o("remote_control", "remote_control", { on: "coffee_table" }),
      o("magazine", "magazine", { on: "coffee_table" }),
      o("cup", "cup", { on: "coffee_table" }),
      o("jacket", "jacket", { on: "sofa" }),
      o("book", "book", { on: "bookshelf" }),
      o("teapot", "teapot", { on: "coffee_table" }),
      o("toy_car", "toy_car", { on: "sofa" }),
    ],
  },
  bedroom: {
    name: "bedroom",
    objects: [
      o("ceiling_light"),
      o("table_lamp"),
      o("bedside_cabinet"),
      o("wardrobe"),
      o("study_desk"),
      o("window"),
      o("trash_can"),
      o("wall_hook"),
      o("radio"),
      o("hair_dryer"),
      o("phone_charger"),
      o("bed"),
      o("armchair"),
      o("child"),
      o("air_conditioner"),
      o("laundry_basket"),
      o("desk_fan"),
      o("book", "book", { on: "study_desk" }),
      o("scarf", "scarf", { on: "bed" }),
      o("remote_control", "remote_control", { on: "bedside_cabinet" }),
      o("glass", "glass", { on: "bedside_cabinet" }),
      o("slippers", "slippers", { on: "bed" }),
      o("notebook", "notebook", { on: "study_desk" }),
      o("jacket", "jacket", { on: "armchair" }),
    ],
  },
  kitchen: {
    name: "kitchen",
    objects: [
      o("ceiling_light"),
      o("fridge"),
      o("microwave"),
      o("kitchen_cabinet"),
      o("kitchen_drawer"),
      o("electric_kettle"),
      o("toaster"),
      o("coffee_machine"),
      o("range_hood"),
      o("faucet"),
      o("stove_knob"),
      o("kitchen_counter"),
      o("cutting_board"),
      o("dish_rack"),
      o("sink"),
      o("trash_can"),
      o("window"),
      o("recycling_bin"),
      o("blender"),
      o("knife", "knife", { on: "kitchen_counter" }),
      o("bread", "bread", { on: "cutting_board" }),
      o("apple", "apple", { on: "kitchen_counter" }),
      o("water_pitcher", "water_pitcher", { on: "kitchen_counter" }),
      o("glass", "glass", { on: "kitchen_counter" }),
      o("mug", "mug", { on: "dish_rack" }),
      o("plate", "plate", { on: "dish_rack" }),
      o("bowl", "bowl", { on: "kitchen_counter" }),
      o("empty_bottle", "empty_bottle", { on: "kitchen_counter" }),
    ],
  },
  study: {
    name: "study",
    objects: [
      o("ceiling_light"),
      o("desk_lamp"),
      o("computer"),
      o("printer"),
      o("filing_cabinet"),
      o("window"),
      o("bookshelf"),
      o("desk"),
      o("pen_holder", "pen_holder", { on: "desk" }),
      o("laptop_charger"),
      o("desk_fan"),
      o("recycling_bin"),
      o("desk_chair"),
      o("coat_rack"),
      o("radiator_valve"),
      o("guest"),
      o("radio"),
      o("book", "book", { on: "desk" }),
      o("notebook", "notebook", { on: "bookshelf" }),
      o("pen", "pen", { on: "desk" }),
      o("jacket", "jacket", { on: "desk_chair" }),
      o("mug", "mug", { on: "desk" }),
      o("magazine", "magazine", { on: "desk" }),
      o("teapot", "teapot", { on: "desk" }),
    ],
  },
  bathroom: {
    name: "bathroom",
    objects: [
      o("ceiling_light"),
      o("mirror_light"),
      o("exhaust_fan"),
      o("bathroom_cabinet"),
      o("window"),
      o("faucet"),
      o("shower_valve"),
      o("towel_rack"),
      o("hair_dryer"),
      o("electric_toothbrush"),
      o("laundry_basket"),
      o("bathroom_shelf"),
      o("trash_can"),
      o("sink"),
      o("wall_hook"),
      o("radiator_valve"),
      o("towel", "towel", { on: "bathroom_shelf" }),
      o("glass", "glass", { on: "bathroom_shelf" }),
      o("slippers", "slippers", { on: "bathroom_shelf" }),
      o("empty_bottle", "empty_bottle", { on: "bathroom_shelf" }),
      o("scarf", "scarf", { on: "bathroom_shelf" }),
    ],
  },
  dining_room: {
    name: "dining room",
    objects: [
      o("chandelier"),
      o("floor_lamp"),
      o("sideboard"),
      o("window"),
      o("dining_table"),
      o("coat_rack"),
      o("trash_can"),
      o("grandmother"),
      o("radio"),
      o("air_conditioner"),
      o("fruit_bowl", "fruit_bowl", { on: "dining_table" }),
      o("desk_fan"),
      o("phone_charger"),
      o("armchair"),
      o("radiator_valve"),
      o("plate", "plate", { on: "dining_table" }),
      o("bowl", "bowl", { on: "sideboard" }),
      o("glass", "glass", { on: "dining_table" }),
      o("water_pitcher", "water_pitcher", { on: "dining_table" }),
      o("napkin", "napkin", { on: "dining_table" }),
      o("knife", "knife", { on: "dining_table" }),
      o("cake", "cake", { on: "dining_table" }),
      o("cheese", "cheese", { on: "sideboard" }),
      o("jacket", "jacket", { on: "armchair" }),
    ],
  },
};

/** An apartment: its id and rooms, each a template with the objects this apartment lacks. */
export interface Scene {
  id: string;
  rooms: { room: string; without: string[] }[];
}

/** The four apartments (TongSim scenes) tasks are drawn from. */
export const SCENES: Scene[] = [
  {
    id: "scene_001",
    rooms: [
      { room: "living_room", without: ["radiator_valve"] },
      { room: "bedroom", without: ["laundry_basket"] },
      { room: "kitchen", without: ["recycling_bin"] },
    ],
  },
  {
    id: "scene_002",
    rooms: [
      { room: "study", without: ["guest"] },
      { room: "bathroom", without: ["radiator_valve"] },
      { room: "kitchen", without: ["coffee_machine", "window"] },
    ],
  },
  {
    id: "scene_003",
    rooms: [
      { room: "living_room", without: ["air_conditioner", "teapot"] },
      { room: "dining_room", without: ["phone_charger"] },
      { room: "bedroom", without: ["radio", "air_conditioner"] },
    ],
  },
  {
    id: "scene_004",
    rooms: [
      { room: "study", without: ["printer"] },
      { room: "dining_room", without: ["desk_fan", "cheese"] },
      { room: "bathroom", without: ["mirror_light"] },
    ],
  },
];

/** The objects of a room of a scene, in template order. */
export function roomObjects(scene: string, room: string): Placement[] {
  const entry = SCENES.find((s) => s.id === scene)?.rooms.find((r) => r.room === room);
  const template = ROOMS[room];
  if (!entry || !template) throw new Error(`no room ${room} in ${scene}`);
  const without = new Set(entry.without);
  return template.objects.filter((p) => !without.has(p.id));
}

/** The kind of an object. */
export function kindOf(kind: string): ObjectKind {
  const found = KINDS[kind];
  if (!found) throw new Error(`unknown object kind ${kind}`);
  return found;
}
