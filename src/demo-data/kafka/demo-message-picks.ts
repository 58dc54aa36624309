/**
 * Choices the error and transaction messages share, drawn from the demo vocabulary with the
 * demo's proportions: the project (by its share), environment, release (later ones more often),
 * user, server and browser.
 */
import {
  BROWSERS,
  CLIENT_OSES,
  DEMO_ENVIRONMENT_WEIGHTS,
  DEMO_ENVIRONMENTS,
  DEMO_PROJECTS,
  FIRST_NAMES,
  LAST_NAMES,
  USERS_PER_PROJECT,
  type DemoProject,
} from "../demo-vocabulary.js";
import type { DemoRandom } from "./demo-message-random.js";

export function pickProject(random: DemoRandom, share: (project: DemoProject) => number): DemoProject {
  return random.weighted(DEMO_PROJECTS, DEMO_PROJECTS.map(share));
}

export function pickEnvironment(random: DemoRandom): string {
  return random.weighted(DEMO_ENVIRONMENTS, DEMO_ENVIRONMENT_WEIGHTS);
}

/** The release a message's time would run: releases roll out over the window, a fifth lag one behind. */
export function pickRelease(random: DemoRandom, project: DemoProject, fractionOfWindow: number): string {
  const releases = project.releases;
  const rolled = Math.min(releases.length - 1, Math.floor(fractionOfWindow * releases.length));
  return releases[Math.max(0, rolled - (random.int(5) === 0 ? 1 : 0))]!;
}

export interface DemoUser {
  readonly id: string;
  readonly email: string;
  readonly username: string;
  readonly ipAddress: string;
}

/** A user of the project, skewed so a few are very active. */
export function pickUser(random: DemoRandom, project: DemoProject): DemoUser {
  const index = Math.floor(USERS_PER_PROJECT * random.next() ** 3);
  const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
  const last = LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length]!;
  const username = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "");
  return {
    id: String(project.id * 100_000 + index),
    email: `${username}${index}@example.com`,
    username,
    ipAddress: `10.${project.id}.${index >> 8}.${index & 255}`,
  };
}

/** A host of the project: the HTTP servers for requests, the task hosts for background work. */
export function pickServer(random: DemoRandom, project: DemoProject, task: boolean): string | null {
  const hosts = task && project.serverNames.task.length > 0 ? project.serverNames.task : project.serverNames.http;
  return hosts.length === 0 ? null : random.pick(hosts);
}

export function pickBrowser(random: DemoRandom): { browser: (typeof BROWSERS)[number]; os: (typeof CLIENT_OSES)[number] } {
  return {
    browser: random.weighted(BROWSERS, BROWSERS.map((b) => b.weight)),
    os: random.weighted(CLIENT_OSES, CLIENT_OSES.map((o) => o.weight)),
  };
}
