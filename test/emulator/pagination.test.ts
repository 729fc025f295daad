/** The pagination envelope (spec 2.7), list order, per_page limits and their 422s — the same on every list. */
import type { RunningEmulator } from "../../emulator";
import { client, start, validationErrors, type Client, type Json } from "./helpers";

let emulator: RunningEmulator;
let admin: Client;

beforeAll(async () => {
  // 75 devices per organization: enough pages for the "..." windows of meta.links.
  emulator = await start({ seed: { devices: 75 }, maxPerPage: 50 });
  admin = client(emulator, emulator.tokens.admin);
});
afterAll(() => emulator.close());

const labels = (page: Json) => page.meta.links.map((l: Json) => l.label);

describe("envelope", () => {
  it("has every field of spec 2.7 with Laravel's values", async () => {
    const response = await admin.get("/devices", { query: { page: 2 } });
    expect(response.status).toBe(200);
    const path = `${emulator.baseUrl}/devices`;
    expect(response.body.links).toEqual({
      first: `${path}?page=1`,
      last: `${path}?page=8`,
      prev: `${path}?page=1`,
      next: `${path}?page=3`,
    });
    const { links, ...meta } = response.body.meta;
    expect(meta).toEqual({ current_page: 2, from: 11, last_page: 8, path, per_page: 10, to: 20, total: 75 });
    expect(links[0]).toEqual({ url: `${path}?page=1`, label: "&laquo; Previous", active: false });
    expect(links[links.length - 1]).toEqual({ url: `${path}?page=3`, label: "Next &raquo;", active: false });
    expect(links.slice(1, -1)).toEqual(
      Array.from({ length: 8 }, (_, i) => ({
        url: `${path}?page=${i + 1}`,
        label: String(i + 1),
        active: i + 1 === 2,
      })),
    );
    expect(response.body.data).toHaveLength(10);
  });

  it("marks the first page: no previous, first link active", async () => {
    const response = await admin.get("/devices");
    expect(response.body.links.prev).toBeNull();
    expect(response.body.meta.links[0]).toEqual({ url: null, label: "&laquo; Previous", active: false });
    expect(response.body.meta.links[1]).toMatchObject({ label: "1", active: true });
    expect(response.body.meta.from).toBe(1);
  });

  it("keeps per_page (and other query parameters) in the links, so following next keeps the page size", async () => {
    const response = await admin.get("/devices", { query: { per_page: 20, page: 1 } });
    const path = `${emulator.baseUrl}/devices`;
    expect(response.body.links.next).toBe(`${path}?per_page=20&page=2`);
    expect(response.body.links.last).toBe(`${path}?per_page=20&page=4`);
    expect(response.body.meta.last_page).toBe(4);
  });

  it("on the last page, next is null and `to` is the total", async () => {
    const response = await admin.get("/devices", { query: { per_page: 20, page: 4 } });
    expect(response.body.links.next).toBeNull();
    expect(response.body.meta.links.at(-1)).toEqual({ url: null, label: "Next &raquo;", active: false });
    expect(response.body.meta).toMatchObject({ from: 61, to: 75, total: 75 });
    expect(response.body.data).toHaveLength(15);
  });

  it("past the end: empty data, from and to null", async () => {
    const response = await admin.get("/devices", { query: { page: 99 } });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toMatchObject({
      current_page: 99,
      from: null,
      to: null,
      last_page: 8,
      total: 75,
    });
    expect(response.body.links.next).toBeNull();
  });

  it("an empty list has one page", async () => {
    const response = await admin.get("/groups");
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toMatchObject({
      current_page: 1,
      from: null,
      to: null,
      last_page: 1,
      total: 0,
    });
    expect(labels(response.body)).toEqual(["&laquo; Previous", "1", "Next &raquo;"]);
    expect(response.body.links.prev).toBeNull();
    expect(response.body.links.next).toBeNull();
  });

  it("abbreviates long page lists with '...' like Laravel (3 on each side)", async () => {
    const near = await admin.get("/devices", { query: { per_page: 5, page: 2 } }); // 15 pages
    expect(labels(near.body)).toEqual([
      "&laquo; Previous",
      ..."1 2 3 4 5 6 7 8 9 10".split(" "),
      "...",
      "14",
      "15",
      "Next &raquo;",
    ]);
    const middle = await admin.get("/devices", { query: { per_page: 5, page: 8 } });
    expect(labels(middle.body)).toEqual([
      "&laquo; Previous",
      "1",
      "2",
      "...",
      "5",
      "6",
      "7",
      "8",
      "9",
      "10",
      "11",
      "...",
      "14",
      "15",
      "Next &raquo;",
    ]);
    expect(middle.body.meta.links.find((l: Json) => l.label === "...")).toEqual({
      url: null,
      label: "...",
      active: false,
    });
    const end = await admin.get("/devices", { query: { per_page: 5, page: 14 } });
    expect(labels(end.body)).toEqual([
      "&laquo; Previous",
      "1",
      "2",
      "...",
      ..."6 7 8 9 10 11 12 13 14 15".split(" "),
      "Next &raquo;",
    ]);
  });
});

describe("order", () => {
  it("is created_at descending, then id ascending, and stable across pages", async () => {
    const pages: Json[] = [];
    for (let page = 1; page <= 4; page++) {
      pages.push(...(await admin.get("/devices", { query: { per_page: 20, page } })).body.data);
    }
    expect(pages).toHaveLength(75);
    expect(new Set(pages.map((d) => d.id)).size).toBe(75);
    let tiesSeen = 0;
    for (let i = 1; i < pages.length; i++) {
      const [a, b] = [pages[i - 1], pages[i]];
      expect(a.createdAt >= b.createdAt).toBe(true);
      if (a.createdAt === b.createdAt) {
        tiesSeen++;
        expect(a.id < b.id).toBe(true);
      }
    }
    // The seed gives pairs of devices the same created_at, so the tie-break is exercised.
    expect(tiesSeen).toBeGreaterThan(10);
  });

  it("puts newly created records first", async () => {
    const created = await admin.post("/groups", { name: "Newest", parentId: null });
    // Two requests in one millisecond share a timestamp, and ties go by id (random): a later instant is later.
    emulator.advanceClock(1_000);
    await admin.post("/groups", { name: "Newer still", parentId: null });
    const list = await admin.get("/groups");
    expect(list.body.data.map((g: Json) => g.name)[0]).toBe("Newer still");
    expect(list.body.data.map((g: Json) => g.id)).toContain(created.body.id);
  });
});

describe("page and per_page validation", () => {
  it("defaults per_page to 10 and accepts up to the configured maximum", async () => {
    expect((await admin.get("/devices")).body.meta.per_page).toBe(10);
    const max = await admin.get("/devices", { query: { per_page: 50 } });
    expect(max.status).toBe(200);
    expect(max.body.data).toHaveLength(50);
  });

  it.each([
    [{ per_page: 51 }, "per_page", "The per page field must not be greater than 50."],
    [{ per_page: 0 }, "per_page", "The per page field must be at least 1."],
    [{ per_page: -3 }, "per_page", "The per page field must be at least 1."],
    [{ per_page: "ten" }, "per_page", "The per page field must be an integer."],
    [{ per_page: "2.5" }, "per_page", "The per page field must be an integer."],
    [{ per_page: "" }, "per_page", "The per page field must be an integer."],
    [{ page: 0 }, "page", "The page field must be at least 1."],
    [{ page: "x" }, "page", "The page field must be an integer."],
    [{ page: [1, 2] }, "page", "The page field must be an integer."],
  ])("rejects %j with 422 and a field error", async (query, field, message) => {
    const response = await admin.get("/devices", { query: query as Json });
    expect(validationErrors(response)).toEqual({ [field]: [message] });
  });

  it("reports both fields at once", async () => {
    const response = await admin.get("/users", { query: { page: "a", per_page: 500 } });
    expect(Object.keys(validationErrors(response)).sort()).toEqual(["page", "per_page"]);
  });

  it("applies the same envelope and limits to every list endpoint", async () => {
    const groupId = (await admin.post("/groups", { name: "Leaf", parentId: null })).body.id;
    await admin.patch(`/groups/${groupId}/configure`);
    const device = (await admin.get("/devices")).body.data[0];
    const app = (await admin.get("/apps")).body.data[0];
    const lists = [
      "/users",
      "/roles",
      "/groups",
      "/devices",
      "/apps",
      `/apps/${app.id}/release-channels`,
      "/files",
      "/videos",
      "/device-models",
      `/groups/${groupId}/release-channels`,
      `/devices/${device.id}/release-channels`,
    ];
    for (const path of lists) {
      const page = await admin.get(path, { query: { per_page: 1 } });
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(["data", "links", "meta"]);
      expect(Object.keys(page.body.meta).sort()).toEqual(
        ["current_page", "from", "last_page", "links", "path", "per_page", "to", "total"].sort(),
      );
      expect(page.body.meta.path).toBe(emulator.baseUrl + path);
      expect(page.body.data.length).toBeLessThanOrEqual(1);
      expect(validationErrors(await admin.get(path, { query: { per_page: 51 } }))).toHaveProperty("per_page");
    }
  });
});
