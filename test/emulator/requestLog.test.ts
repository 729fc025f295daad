/** The opt-in request log (`recordRequests`, `requests()`): what a test comparing two clients' requests reads. */
import { client, start } from "./helpers";

it("records each answered /api request with its route, path, query, body and status, until a reset", async () => {
  const emulator = await start({ recordRequests: true });
  try {
    const admin = client(emulator, emulator.tokens.admin);
    const created = await admin.post<{ id: string }>("/groups", { name: "Lab", parentId: null });
    await admin.get("/groups?page=1&per_page=10");
    await admin.get(`/groups/${created.body.id}`, { token: null });
    expect(emulator.requests()).toEqual([
      {
        route: "POST /groups",
        path: "/groups",
        query: "",
        body: { name: "Lab", parentId: null },
        status: 201,
      },
      { route: "GET /groups", path: "/groups", query: "page=1&per_page=10", body: undefined, status: 200 },
      {
        route: "GET /groups/{groupId}",
        path: `/groups/${created.body.id}`,
        query: "",
        body: undefined,
        status: 401,
      },
    ]);
    emulator.resetStats();
    expect(emulator.requests()).toEqual([]);
  } finally {
    await emulator.close();
  }
});

it("keeps no log unless asked, and says so", async () => {
  const emulator = await start();
  try {
    expect(() => emulator.requests()).toThrow("recordRequests: true");
  } finally {
    await emulator.close();
  }
});
