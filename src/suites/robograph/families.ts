/**
 * The built-in task families of RoboGraphBench (Table 3): seven families, nine domain
 * variants, 84 source scenes. Goal sizes match the paper's per-family subgoal counts
 * (Tables 6-8: buffet 10, cosmetics 20, desk 21, dining 9, food packing 12, fridge 14,
 * toy 16); object, container and occluder counts are tuned so oracle lengths land near the
 * paper's per-family L_o.
 */
import { type FamilySpec, parseFamily } from "./family-spec.ts";

const cosmetics = {
  id: "cosmetics",
  title: "Cosmetics storage",
  task: "Store the cosmetics and close the drawers and the makeup box",
  domain: "tabletop",
  scenes: 10,
  rooms: ["vanity room"],
  fixtures: [
    { key: "vanity", name: "vanity table", kind: "surface", staging: true },
    {
      key: "top_drawer",
      name: "top drawer",
      kind: "container",
      on: "vanity",
      openable: true,
      mustClose: true,
      keep: true,
    },
    {
      key: "bottom_drawer",
      name: "bottom drawer",
      kind: "container",
      on: "vanity",
      openable: true,
      mustClose: true,
      keep: true,
    },
    {
      key: "makeup_box",
      name: "makeup box",
      kind: "container",
      on: ["vanity", "top_drawer"],
      openable: true,
      mustClose: true,
      keep: true,
    },
    { key: "bag", name: "storage bag", kind: "container", on: "vanity", keep: true },
    {
      key: "tray",
      name: "cosmetic tray",
      kind: "container",
      on: "vanity",
      wrong: true,
      keep: true,
    },
  ],
  objects: [
    {
      category: "lipstick",
      names: ["red lipstick", "pink lipstick", "nude lipstick", "coral lipstick"],
      count: 2,
      goal: { rel: "INSIDE", target: "bag" },
      from: ["vanity", "makeup_box"],
      hidden: [0, 1],
      part: { name: "cap", category: "lipstick cap" },
    },
    {
      category: "skincare",
      names: ["face serum", "moisturizer", "toner bottle", "eye cream", "sunscreen", "cleanser"],
      count: 4,
      goal: { rel: "INSIDE", target: "makeup_box" },
      from: ["vanity", "top_drawer"],
      hidden: [2, 3],
    },
    {
      category: "makeup",
      names: [
        "concealer",
        "primer bottle",
        "mascara",
        "foundation",
        "blush",
        "eyeliner",
        "highlighter",
      ],
      count: 4,
      goal: { rel: "INSIDE", target: "bag" },
      from: ["vanity", "bottom_drawer"],
      hidden: [2, 3],
    },
  ],
  occluders: {
    names: ["tissue box", "hand mirror", "cotton pad jar"],
    count: [1, 2],
    on: ["vanity"],
    hides: [1, 2],
  },
};

const desk = {
  id: "desk",
  title: "Desk organization",
  task: "Organize the desk",
  domain: "tabletop",
  scenes: 10,
  rooms: ["study"],
  fixtures: [
    { key: "desk", name: "desk", kind: "surface", staging: true },
    {
      key: "drawer",
      name: "desk drawer",
      kind: "container",
      on: "desk",
      openable: true,
      mustClose: true,
      keep: true,
    },
    {
      key: "pencil_case",
      name: "pencil case",
      kind: "container",
      on: ["desk", "drawer"],
      openable: true,
      mustClose: true,
      keep: true,
    },
    { key: "shelf", name: "bookshelf", kind: "surface" },
    { key: "letter_tray", name: "letter tray", kind: "container", on: "desk", keep: true },
    { key: "bin", name: "waste bin", kind: "container", wrong: true },
  ],
  objects: [
    {
      category: "pen",
      names: ["blue pen", "black pen", "red pen", "green pen", "pencil", "marker"],
      count: 4,
      goal: { rel: "INSIDE", target: "pencil_case" },
      from: ["desk"],
    },
    {
      category: "stationery",
      names: ["eraser", "ruler", "sharpener", "glue stick"],
      count: 2,
      placed: [0, 1],
      goal: { rel: "INSIDE", target: "pencil_case" },
      from: ["desk"],
    },
    {
      category: "book",
      names: ["math textbook", "notebook", "novel", "dictionary", "atlas"],
      count: 3,
      placed: 1,
      goal: { rel: "ON", target: "shelf" },
      from: ["desk"],
    },
    {
      category: "document",
      names: ["report", "invoice", "letter", "worksheet"],
      count: 2,
      placed: [0, 1],
      goal: { rel: "INSIDE", target: "letter_tray" },
      from: ["desk"],
    },
    {
      category: "desk item",
      names: ["desk lamp", "monitor", "keyboard", "mouse pad", "phone stand", "desk clock"],
      count: 2,
      placed: 2,
      goal: { rel: "ON", target: "desk" },
      from: ["shelf"],
    },
    {
      category: "office supply",
      names: ["stapler", "tape dispenser", "sticky notes", "paper clips", "hole punch"],
      count: 3,
      placed: [2, 3],
      goal: { rel: "INSIDE", target: "drawer" },
      from: ["pencil_case"],
    },
  ],
  occluders: {
    names: ["stack of papers", "laptop", "file box"],
    count: 1,
    on: ["desk"],
    hides: [2, 3],
  },
};

const dining = {
  id: "dining",
  title: "Dining-table organization",
  task: "Set the dining table",
  domain: "tabletop",
  scenes: 10,
  rooms: ["dining room"],
  fixtures: [
    { key: "table", name: "dining table", kind: "surface" },
    { key: "sideboard", name: "sideboard", kind: "surface", staging: true },
    { key: "holder", name: "cutlery holder", kind: "container", on: "table" },
    {
      key: "side_drawer",
      name: "sideboard drawer",
      kind: "container",
      on: "sideboard",
      openable: true,
    },
    { key: "rack", name: "dish rack", kind: "container", on: "sideboard", wrong: true },
  ],
  objects: [
    {
      category: "tableware",
      names: [
        "dinner plate",
        "salad plate",
        "soup bowl",
        "water glass",
        "wine glass",
        "coffee cup",
      ],
      count: 5,
      placed: [0, 1],
      goal: { rel: "ON", target: "table" },
      from: ["sideboard"],
    },
    {
      category: "cutlery",
      names: ["fork", "knife", "spoon", "teaspoon", "dessert fork"],
      count: 4,
      goal: { rel: "INSIDE", target: "holder" },
      from: ["sideboard", "table", "side_drawer"],
      hidden: [0, 1],
    },
    {
      category: "linen",
      names: ["napkin ring", "tablecloth", "candle", "coaster set"],
      count: 2,
      from: ["side_drawer"],
    },
  ],
  occluders: {
    names: ["bread basket", "fruit bowl"],
    count: 1,
    on: ["sideboard", "side_drawer"],
    hides: [2, 3],
  },
};

const toy = {
  id: "toy",
  title: "Toy organization",
  task: "Tidy up the toys",
  domain: "tabletop",
  scenes: 10,
  rooms: ["playroom"],
  fixtures: [
    { key: "mat", name: "play mat", kind: "surface", staging: true },
    { key: "chest", name: "toy chest", kind: "container", openable: true, mustClose: true },
    { key: "bin", name: "block bin", kind: "container", on: "mat", capacity: 4, keep: true },
    { key: "shelf", name: "toy shelf", kind: "surface" },
    {
      key: "box",
      name: "storage box",
      kind: "container",
      on: ["mat", "chest"],
      openable: true,
      mustClose: true,
      keep: true,
    },
    { key: "basket", name: "laundry basket", kind: "container", wrong: true },
  ],
  objects: [
    {
      category: "block",
      names: [
        "red block",
        "blue block",
        "yellow block",
        "green block",
        "orange block",
        "purple block",
      ],
      count: 4,
      goal: { rel: "INSIDE", target: "bin" },
      from: ["mat"],
    },
    {
      category: "plush toy",
      names: ["teddy bear", "plush bunny", "plush dog", "plush elephant"],
      count: 4,
      goal: { rel: "ON", target: "shelf" },
      from: ["mat", "box"],
      hidden: [1, 2],
    },
    {
      category: "toy car",
      names: ["race car", "fire truck", "police car", "school bus"],
      count: 2,
      goal: { rel: "INSIDE", target: "chest" },
      from: ["mat", "box"],
      hidden: 1,
      part: { name: "wheel set", category: "wheel set" },
    },
  ],
  occluders: {
    names: ["toy tent", "pillow", "puzzle box"],
    count: [2, 3],
    on: ["mat"],
    hides: [1, 2],
  },
  addedObject: { mode: "capacity", container: "bin", overflow: "box" },
};

const buffetFixtures = (room: string, counterRoom: string) => [
  { key: "counter", name: "buffet counter", kind: "surface", room, staging: true },
  { key: "hot_tray", name: "hot food tray", kind: "container", on: "counter", keep: true },
  { key: "cold_tray", name: "cold food tray", kind: "container", on: "counter", keep: true },
  { key: "dessert_tray", name: "dessert tray", kind: "container", on: "counter" },
  { key: "basket", name: "bread basket", kind: "container", on: "counter", wrong: true },
  { key: "prep", name: "prep counter", kind: "surface", room: counterRoom },
  { key: "warmer", name: "warming drawer", kind: "container", on: "prep", openable: true },
];

const buffetObjects = [
  {
    category: "hot dish",
    names: ["fried rice", "roast chicken", "steamed dumplings", "grilled fish", "noodles"],
    count: 3,
    placed: 1,
    goal: { rel: "INSIDE", target: "hot_tray" },
    from: ["prep", "warmer"],
    hidden: [0, 1],
  },
  {
    category: "cold dish",
    names: ["green salad", "fruit salad", "sushi rolls", "cold noodles", "coleslaw"],
    count: 3,
    placed: [1, 2],
    goal: { rel: "INSIDE", target: "cold_tray" },
    from: ["prep", "counter"],
  },
  {
    category: "dessert",
    names: ["chocolate cake", "pudding cup", "cookies", "fruit tart"],
    count: 2,
    placed: [0, 1],
    goal: { rel: "INSIDE", target: "dessert_tray" },
    from: ["counter"],
  },
];

const buffetTabletop = {
  id: "buffet",
  title: "Buffet-tray sorting",
  task: "Sort the buffet dishes onto their trays",
  domain: "tabletop",
  scenes: 7,
  rooms: ["buffet hall"],
  fixtures: buffetFixtures("buffet hall", "buffet hall"),
  objects: buffetObjects,
  occluders: {
    names: ["serving cloche", "napkin stack"],
    count: 1,
    on: ["prep", "counter", "warmer"],
    hides: [2, 3],
  },
};

const buffetIndoor = {
  ...buffetTabletop,
  domain: "indoor",
  rooms: ["dining hall", "kitchen"],
  fixtures: buffetFixtures("dining hall", "kitchen"),
  occluders: {
    names: ["serving cloche", "napkin stack"],
    count: 1,
    on: ["prep", "warmer"],
    hides: [2, 3],
  },
};

const fridgeFixtures = (fridgeRoom: string, pantryRoom: string) => [
  { key: "counter", name: "kitchen counter", kind: "surface", room: fridgeRoom, staging: true },
  {
    key: "fridge",
    name: "fridge",
    kind: "container",
    room: fridgeRoom,
    openable: true,
    mustClose: true,
  },
  {
    key: "door_shelf",
    name: "door shelf",
    kind: "container",
    on: "fridge",
    capacity: 6,
    keep: true,
  },
  { key: "main_shelf", name: "main shelf", kind: "container", on: "fridge", keep: true },
  { key: "bowl", name: "fruit bowl", kind: "container", on: "counter", wrong: true },
  { key: "pantry", name: "pantry shelf", kind: "surface", room: pantryRoom },
  {
    key: "cabinet",
    name: "pantry cabinet",
    kind: "container",
    on: "pantry",
    openable: true,
    mustClose: true,
  },
];

const fridgeObjects = (dairyPlaced: number | [number, number], condimentFrom: string[]) => [
  {
    category: "condiment",
    names: [
      "ketchup",
      "mustard",
      "mayonnaise",
      "soy sauce",
      "hot sauce",
      "bbq sauce",
      "salad dressing",
    ],
    count: 5,
    placed: 1,
    goal: { rel: "INSIDE", target: "door_shelf" },
    from: condimentFrom,
    hidden: [1, 2],
  },
  {
    category: "dairy",
    names: ["butter", "yogurt", "cream cheese", "milk carton", "jam jar", "cheese block"],
    count: 5,
    placed: dairyPlaced,
    goal: { rel: "INSIDE", target: "main_shelf" },
    from: ["counter", "pantry"],
  },
];

const fridgeTabletop = {
  id: "fridge",
  title: "Fridge-condiment loading",
  task: "Load the condiments and dairy into the fridge",
  domain: "tabletop",
  scenes: 10,
  rooms: ["kitchen"],
  fixtures: fridgeFixtures("kitchen", "kitchen"),
  objects: fridgeObjects([1, 2], ["pantry", "cabinet", "main_shelf"]),
  occluders: {
    names: ["cereal box", "bread bag", "paper towel roll"],
    count: [0, 2],
    on: ["counter", "pantry", "main_shelf"],
    hides: [1, 2],
  },
};

const fridgeIndoor = {
  ...fridgeTabletop,
  domain: "indoor",
  rooms: ["kitchen", "pantry room"],
  fixtures: fridgeFixtures("kitchen", "pantry room"),
  objects: fridgeObjects(3, ["pantry", "cabinet"]),
  occluders: {
    names: ["cereal box", "bread bag", "paper towel roll"],
    count: 1,
    on: ["counter", "pantry", "cabinet"],
    hides: 1,
  },
};

const foodpack = {
  id: "foodpack",
  title: "Food packing",
  task: "Pack the picnic food into the basket",
  domain: "indoor",
  scenes: 10,
  rooms: ["living room", "kitchen", "pantry room"],
  fixtures: [
    { key: "table", name: "coffee table", kind: "surface", room: "living room", staging: true },
    {
      key: "basket",
      name: "picnic basket",
      kind: "container",
      on: "table",
      openable: true,
      mustClose: true,
      keep: true,
    },
    { key: "cooler", name: "cooler bag", kind: "container", on: "table", keep: true },
    { key: "counter", name: "kitchen counter", kind: "surface", room: "kitchen" },
    {
      key: "fridge",
      name: "fridge",
      kind: "container",
      room: "kitchen",
      openable: true,
      mustClose: true,
    },
    { key: "pantry", name: "pantry shelf", kind: "surface", room: "pantry room" },
    { key: "bowl", name: "serving bowl", kind: "container", on: "counter", wrong: true },
  ],
  objects: [
    {
      category: "snack",
      names: ["sandwich", "granola bars", "crackers", "apple", "banana", "potato chips", "muffin"],
      count: 4,
      placed: 2,
      goal: { rel: "INSIDE", target: "basket" },
      from: ["counter", "pantry"],
    },
    {
      category: "chilled food",
      names: ["juice box", "yogurt cup", "cheese slices", "cold pasta", "lemonade bottle"],
      count: 4,
      placed: 1,
      goal: { rel: "INSIDE", target: "cooler" },
      from: ["fridge", "counter"],
      hidden: [1, 2],
    },
  ],
  occluders: {
    names: ["cereal box", "stack of plates"],
    count: 1,
    on: ["counter", "pantry", "fridge"],
    hides: [2, 3],
  },
};

/** The built-in families, in Table 3 order (buffet and fridge in both domains). */
export const BUILTIN_FAMILIES: readonly FamilySpec[] = [
  buffetTabletop,
  buffetIndoor,
  cosmetics,
  desk,
  dining,
  foodpack,
  fridgeTabletop,
  fridgeIndoor,
  toy,
].map((f) => parseFamily(f, `built-in family ${f.id}/${f.domain}`));
