import { type Page, PageIterator, ValidationError } from "../../provider/client";
import { group, JSON_HEADERS, mockClient, page, role } from "./fixtures";

describe("PageIterator (pure)", () => {
  function pagesOf(items: number[], perPage: number) {
    const requests: Array<{ page: number; perPage?: number }> = [];
    const concurrency = { current: 0, max: 0 };
    const lastPage = Math.max(1, Math.ceil(items.length / perPage));
    const fetchPage = async (request: { page: number; perPage?: number }): Promise<Page<number>> => {
      requests.push(request);
      concurrency.current++;
      concurrency.max = Math.max(concurrency.max, concurrency.current);
      await new Promise((resolve) => setImmediate(resolve));
      concurrency.current--;
      const start = (request.page - 1) * perPage;
      return {
        data: items.slice(start, start + perPage),
        meta: { current_page: request.page, last_page: lastPage, per_page: perPage, total: items.length },
      };
    };
    return { iterator: new PageIterator(fetchPage), requests, concurrency };
  }

  test("iterates every item across pages in order and stops at last_page", async () => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    const { iterator, requests } = pagesOf(items, 100);
    const seen: number[] = [];
    for await (const item of iterator) seen.push(item);
    expect(seen).toEqual(items);
    expect(requests).toEqual([
      { page: 1, perPage: 100 },
      { page: 2, perPage: 100 },
      { page: 3, perPage: 100 },
    ]);
  });

  test("all() collects the same items in the same order, fetching later pages concurrently", async () => {
    const items = Array.from({ length: 1234 }, (_, i) => i);
    const { iterator, requests, concurrency } = pagesOf(items, 100);
    await expect(iterator.all()).resolves.toEqual(items);
    expect(requests.map((r) => r.page).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 13 }, (_, i) => i + 1),
    );
    expect(concurrency.max).toBe(4);
  });

  test("an empty list is one request and no items", async () => {
    const { iterator, requests } = pagesOf([], 100);
    await expect(iterator.all()).resolves.toEqual([]);
    const seen: number[] = [];
    for await (const item of iterator) seen.push(item);
    expect(seen).toEqual([]);
    expect(requests).toHaveLength(2); // one per traversal
  });

  test("stopping early fetches no further pages", async () => {
    const { iterator, requests } = pagesOf(
      Array.from({ length: 500 }, (_, i) => i),
      100,
    );
    for await (const item of iterator) {
      if (item === 150) break;
    }
    expect(requests.map((r) => r.page)).toEqual([1, 2]);
  });

  test("a list that shrinks while being read ends at the first empty page", async () => {
    const requests: number[] = [];
    const iterator = new PageIterator<number>(async ({ page }) => {
      requests.push(page);
      return {
        data: page === 1 ? [1, 2] : [],
        meta: { current_page: page, last_page: 5, per_page: 2, total: 10 },
      };
    });
    const seen: number[] = [];
    for await (const item of iterator) seen.push(item);
    expect(seen).toEqual([1, 2]);
    expect(requests).toEqual([1, 2]);
  });
});

describe("list endpoints through the client (MockAgent)", () => {
  test("pages are requested by number with per_page=100; links are not followed", async () => {
    const { client, pool } = mockClient();
    const roles = Array.from({ length: 230 }, (_, i) => role({ name: `Role ${i}` }));
    for (let p = 1; p <= 3; p++) {
      const body = page(roles.slice((p - 1) * 100, p * 100), p, 3, 100, 230);
      // A hostile `next` link must not be used.
      body.links.next = p < 3 ? "http://elsewhere.example/steal" : null;
      pool
        .intercept({ path: `/api/v3/roles?page=${p}&per_page=100` })
        .reply(200, body, { headers: JSON_HEADERS });
    }
    const all = await client.roles.all();
    expect(all.map((r) => r.name)).toEqual(roles.map((r) => r.name));
    expect(client.stats().requests).toBe(3);
  });

  test("an empty list answers [] after one request", async () => {
    const { client, pool } = mockClient();
    pool
      .intercept({ path: "/api/v3/groups?page=1&per_page=100" })
      .reply(200, page([], 1, 1, 100, 0), { headers: JSON_HEADERS });
    await expect(client.groups.all()).resolves.toEqual([]);
    expect(client.stats().requests).toBe(1);
  });

  // Page sizes are remembered per base URL for the process, so each test below uses its own host.
  test("a 422 naming the maximum is read at that maximum, and the next list starts there", async () => {
    const baseUrl = "http://max50.devicemgmt.test/api/v3";
    const { client, pool } = mockClient({ baseUrl });
    const groups = Array.from({ length: 120 }, (_, i) => group({ name: `G${i}` }));
    pool.intercept({ path: "/api/v3/groups?page=1&per_page=100" }).reply(422, {
      message: "The per page field must not be greater than 50.",
      errors: { per_page: ["The per page field must not be greater than 50."] },
    });
    for (let p = 1; p <= 3; p++) {
      pool
        .intercept({ path: `/api/v3/groups?page=${p}&per_page=50` })
        .reply(200, page(groups.slice((p - 1) * 50, p * 50), p, 3, 50, 120), { headers: JSON_HEADERS });
    }
    const names = (await client.groups.all()).map((g) => g.name);
    expect(names).toEqual(groups.map((g) => g.name));
    expect(client.stats().requests).toBe(4);

    // Another client of the same server asks for 50 straight away.
    const again = mockClient({ baseUrl });
    again.pool
      .intercept({ path: "/api/v3/roles?page=1&per_page=50" })
      .reply(200, page([role()], 1, 1, 50, 1), { headers: JSON_HEADERS });
    await expect(again.client.roles.all()).resolves.toHaveLength(1);
    expect(again.client.stats().requests).toBe(1);
  });

  test("a per_page refusal without a number steps down 100, 50, 25 — never to 10 when 25 is taken", async () => {
    const { client, pool } = mockClient({ baseUrl: "http://steps.devicemgmt.test/api/v3" });
    const refusal = { message: "Unprocessable Entity", errors: { per_page: ["The per page is invalid."] } };
    pool.intercept({ path: "/api/v3/groups?page=1&per_page=100" }).reply(422, refusal);
    pool.intercept({ path: "/api/v3/groups?page=1&per_page=50" }).reply(422, refusal);
    const groups = Array.from({ length: 30 }, (_, i) => group({ name: `G${i}` }));
    for (let p = 1; p <= 2; p++) {
      pool
        .intercept({ path: `/api/v3/groups?page=${p}&per_page=25` })
        .reply(200, page(groups.slice((p - 1) * 25, p * 25), p, 2, 25, 30), { headers: JSON_HEADERS });
    }
    const seen: string[] = [];
    for await (const g of client.groups.list()) seen.push(g.name);
    expect(seen).toEqual(groups.map((g) => g.name));
    expect(client.stats().requests).toBe(4);
  });

  test("a server that serves fewer than asked (meta.per_page) is asked for that size", async () => {
    const baseUrl = "http://clamp.devicemgmt.test/api/v3";
    const { client, pool } = mockClient({ baseUrl });
    const groups = Array.from({ length: 40 }, (_, i) => group({ name: `G${i}` }));
    pool
      .intercept({ path: "/api/v3/groups?page=1&per_page=100" })
      .reply(200, page(groups.slice(0, 20), 1, 2, 20, 40), { headers: JSON_HEADERS });
    pool
      .intercept({ path: "/api/v3/groups?page=2&per_page=20" })
      .reply(200, page(groups.slice(20), 2, 2, 20, 40), { headers: JSON_HEADERS });
    expect((await client.groups.all()).map((g) => g.name)).toEqual(groups.map((g) => g.name));
    const again = mockClient({ baseUrl });
    again.pool
      .intercept({ path: "/api/v3/groups?page=1&per_page=20" })
      .reply(200, page([], 1, 1, 20, 0), { headers: JSON_HEADERS });
    await expect(again.client.groups.all()).resolves.toEqual([]);
  });

  test("a 422 that persists without per_page is surfaced", async () => {
    const { client, pool } = mockClient();
    pool.intercept({ path: "/api/v3/groups?page=1&per_page=100" }).reply(422, { message: "Bad filter" });
    pool.intercept({ path: "/api/v3/groups?page=1" }).reply(422, { message: "Bad filter" });
    await expect(client.groups.all()).rejects.toBeInstanceOf(ValidationError);
    expect(client.stats().requests).toBe(2);
  });

  test("devices can be filtered by group ids (group_ids[] repeated)", async () => {
    const { client, pool } = mockClient();
    const a = "a87ff679-a2f3-471d-9181-a67b7542122c";
    const b = "e4da3b7f-bbce-4345-9777-2b0674a318d5";
    let requested = "";
    pool.intercept({ path: (path) => path.startsWith("/api/v3/devices?") }).reply((options) => {
      requested = options.path;
      return { statusCode: 200, data: page([], 1, 1, 100, 0), responseOptions: { headers: JSON_HEADERS } };
    });
    await client.devices.all({ groupIds: [a, b] });
    const query = new URL(requested, "http://x").searchParams;
    expect(query.getAll("group_ids[]")).toEqual([a, b]);
    expect(query.get("per_page")).toBe("100");
  });

  test("release channels of a group are an async iterator", async () => {
    const { client, pool } = mockClient();
    const groupId = "1679091c-5a88-4faf-afb5-e6087eb1b2dc";
    pool
      .intercept({ path: `/api/v3/groups/${groupId}/release-channels?page=1&per_page=100` })
      .reply(200, page([], 1, 1, 100, 0), { headers: JSON_HEADERS });
    const seen: unknown[] = [];
    for await (const channel of client.groups.releaseChannels(groupId)) seen.push(channel);
    expect(seen).toEqual([]);
  });
});
