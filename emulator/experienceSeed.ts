/**
 * Seeded images, custom 3D environments and themes of one organization, so the sandbox and the demo have
 * something to put into a headset experience. System images and themes carry the same ids in every
 * organization (they are the vendor's); the organization's own mirror each other by name, as the rest of the
 * catalogue does.
 */
import type { Custom3DEnvironment, Image, ImageType, Theme } from "./experienceModel";
import { seedId } from "./seed";

const EXPERIENCE_EPOCH = "2024-02-20T09:00:00.000Z";

const at = (minutes: number) => new Date(Date.parse(EXPERIENCE_EPOCH) + minutes * 60_000).toISOString();

interface SeedImage {
  fileName: string;
  type: ImageType;
  sizeBytes: number;
}

const SYSTEM_IMAGES: readonly SeedImage[] = [
  { fileName: "arborxr-menu-icon.png", type: "headset-xp-menu-icon", sizeBytes: 18_432 },
  { fileName: "arborxr-banner.png", type: "headset-xp-banner", sizeBytes: 204_800 },
  { fileName: "arborxr-skybox.jpg", type: "headset-xp-skybox", sizeBytes: 3_145_728 },
  { fileName: "mountain-lake-360.jpg", type: "three-sixty-background", sizeBytes: 8_388_608 },
];

const ORGANIZATION_IMAGES: readonly SeedImage[] = [
  { fileName: "acme-menu-icon.png", type: "headset-xp-menu-icon", sizeBytes: 20_480 },
  { fileName: "acme-banner.png", type: "headset-xp-banner", sizeBytes: 225_280 },
  { fileName: "warehouse-skybox.jpg", type: "headset-xp-skybox", sizeBytes: 4_194_304 },
  { fileName: "warehouse-floor-360.jpg", type: "three-sixty-background", sizeBytes: 9_437_184 },
  { fileName: "acme-wallpaper.jpg", type: "android-wallpaper", sizeBytes: 1_048_576 },
  { fileName: "acme-logo.png", type: "organization-icon", sizeBytes: 32_768 },
  { fileName: "training-simulator-icon.png", type: "app-icon", sizeBytes: 16_384 },
  { fileName: "welcome-tour-icon.png", type: "video-icon", sizeBytes: 12_288 },
  { fileName: "browser-icon.png", type: "unmanaged-app-icon", sizeBytes: 8_192 },
  { fileName: "webxr-showcase-icon.png", type: "webxr-link-icon", sizeBytes: 8_192 },
  { fileName: "untitled.png", type: "unknown", sizeBytes: 4_096 },
];

const SYSTEM_THEMES = [
  {
    name: "ArborXR Dark",
    background1: "#1a1a1a",
    background2: "#2a2a2a",
    text: "#ffffff",
    accent1: "#007bff",
    accent2: "#28a745",
    accent3: "#dc3545",
  },
  {
    name: "ArborXR Light",
    background1: "#ffffff",
    background2: "#f2f2f2",
    text: "#1a1a1a",
    accent1: "#0056b3",
    accent2: "#1e7e34",
    accent3: "#bd2130",
  },
] as const;

const ORGANIZATION_THEMES = [
  {
    name: "Acme Brand",
    background1: "#0b1f3a",
    background2: "#13315c",
    text: "#f5f7fa",
    accent1: "#ff8c00",
    accent2: "#ffd166",
    accent3: "#ef476f",
  },
] as const;

const MIME = { png: "image/png", jpg: "image/jpeg" } as const;

function image(idKey: string, definition: SeedImage, isSystemOwned: boolean, minutes: number): Image {
  const id = seedId(idKey);
  const extension = definition.fileName.split(".").pop() as keyof typeof MIME;
  return {
    id,
    isSystemOwned,
    objectName: `${id}.${extension}`,
    originalFileName: definition.fileName,
    mimeType: MIME[extension],
    sizeBytes: definition.sizeBytes,
    type: definition.type,
    status: "available",
    createdAt: at(minutes),
    updatedAt: at(minutes),
  };
}

export interface ExperienceCatalogue {
  images: Image[];
  custom3DEnvironments: Custom3DEnvironment[];
  themes: Theme[];
}

export function seedExperienceCatalogue(slug: string): ExperienceCatalogue {
  const images = [
    ...SYSTEM_IMAGES.map((d, i) => image(`system/image/${d.fileName}`, d, true, i)),
    ...ORGANIZATION_IMAGES.map((d, i) => image(`${slug}/image/${d.fileName}`, d, false, 10 + i)),
  ];
  const custom3DEnvironments: Custom3DEnvironment[] = [
    {
      id: seedId(`${slug}/custom-3d-environment/acme-showroom.glb`),
      objectName: "acme-showroom.glb",
      sizeBytes: 25_165_824,
      status: "available",
      createdAt: at(30),
      updatedAt: at(30),
    },
  ];
  const themes: Theme[] = [
    ...SYSTEM_THEMES.map((t, i) => ({
      id: seedId(`system/theme/${t.name}`),
      isSystemOwned: true,
      ...t,
      createdAt: at(40 + i),
      updatedAt: at(40 + i),
    })),
    ...ORGANIZATION_THEMES.map((t, i) => ({
      id: seedId(`${slug}/theme/${t.name}`),
      isSystemOwned: false,
      ...t,
      createdAt: at(50 + i),
      updatedAt: at(50 + i),
    })),
  ];
  return { images, custom3DEnvironments, themes };
}
