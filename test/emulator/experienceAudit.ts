/**
 * The audit test's writes for experiences and themes: each configure operation (group and device) and each
 * theme write once, through the audit test's `write`, which checks the one record it adds.
 */
import { catalogue, homeBody, kioskBody, launcherBody, META_HMS_SETTINGS } from "./experienceHelpers";
import type { Client, Json } from "./helpers";

type AuditedWrite = (
  key: string,
  run: () => Promise<{ status: number }>,
  expected: { type: string; action: string; resourceType: string; resourceId?: string },
) => Promise<Json>;

export async function auditExperienceWrites(
  write: AuditedWrite,
  api: Client,
  groupId: string,
): Promise<void> {
  const c = await catalogue(api);
  const devices = (await api.get("/devices", { query: { per_page: 100 } })).body.data as Json[];
  const deviceId = devices.find((d) => !d.group).id as string;
  const bodies: Record<string, Record<string, Json>> = {
    "headset-experience": {
      "arborxr-home": homeBody(c),
      "arborxr-kiosk": kioskBody(c),
      "default-home": { metaHmsSettings: META_HMS_SETTINGS },
      "in-house-launcher": launcherBody(c),
    },
    "device-experience": {
      "lock-task": { visibleContents: [{ type: "app", id: c.apps[0] }] },
      "default-home": {},
      "in-house-launcher": { launcherContent: { type: "app", id: c.apps[0] }, visibleContents: [] },
    },
  };
  for (const [segment, modes] of Object.entries(bodies))
    for (const [mode, body] of Object.entries(modes)) {
      const action = `configure-${segment}`;
      await write(
        `POST /groups/{groupId}/${segment}/${mode}`,
        () => api.post(`/groups/${groupId}/${segment}/${mode}`, body),
        {
          type: "updated",
          action,
          resourceType: "group",
          resourceId: groupId,
        },
      );
      await write(
        `POST /devices/{deviceId}/${segment}/${mode}`,
        () => api.post(`/devices/${deviceId}/${segment}/${mode}`, body),
        { type: "updated", action, resourceType: "device", resourceId: deviceId },
      );
    }

  const colors = {
    background1: "#000000",
    background2: "#111111",
    text: "#ffffff",
    accent1: "#222222",
    accent2: "#333333",
    accent3: "#444444",
  };
  const created = await write(
    "POST /themes",
    () => api.post("/themes", { name: "Audited theme", ...colors }),
    {
      type: "created",
      action: "create-theme",
      resourceType: "theme",
    },
  );
  const themeId = created.resourceId as string;
  const onTheme = { resourceType: "theme", resourceId: themeId };
  await write(
    "PUT /themes/{themeId}",
    () => api.put(`/themes/${themeId}`, { name: "Audited theme 2", ...colors }),
    {
      type: "updated",
      action: "update-theme",
      ...onTheme,
    },
  );
  await write("DELETE /themes/{themeId}", () => api.delete(`/themes/${themeId}`), {
    type: "deleted",
    action: "delete-theme",
    ...onTheme,
  });
}
