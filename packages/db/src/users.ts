import type { DatabaseClient } from "./create-database.js";
import { holdsValues, normalizeEmail, translateWrite } from "./repository-support.js";

/** A user row (the password hash is included: never render it). */
export interface UserRecord {
  id: string;
  email: string;
  emailNormalized: string;
  name: string;
  passwordHash: string | null;
  lastLoginAt: Date | null;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface UserInput {
  email: string;
  name?: string;
  passwordHash?: string | null;
}

/** Creates a user; 409 `conflict` when the email exists in any letter case. */
export async function createUser(db: DatabaseClient, input: UserInput): Promise<UserRecord> {
  return translateWrite("user with this email", () =>
    db.prisma.user.create({
      data: { email: input.email.trim(), emailNormalized: normalizeEmail(input.email), name: input.name ?? "", passwordHash: input.passwordHash ?? null },
    }),
  );
}

/**
 * Declarative config: creates the user with this email or updates name (and the password hash
 * when one is given; an omitted hash keeps the stored one).
 */
export async function upsertUserByEmail(db: DatabaseClient, input: UserInput): Promise<UserRecord> {
  const update: Record<string, unknown> = {};
  if (input.name !== undefined) update.name = input.name;
  if (input.passwordHash !== undefined) update.passwordHash = input.passwordHash;
  const existing = await db.prisma.user.findUnique({ where: { emailNormalized: normalizeEmail(input.email) } });
  if (existing && holdsValues(existing, update)) return existing;
  return db.prisma.user.upsert({
    where: { emailNormalized: normalizeEmail(input.email) },
    create: { email: input.email.trim(), emailNormalized: normalizeEmail(input.email), name: input.name ?? "", passwordHash: input.passwordHash ?? null },
    update,
  });
}

export async function getUser(db: DatabaseClient, id: string): Promise<UserRecord | null> {
  return db.prisma.user.findUnique({ where: { id } });
}

/** Looks a user up by email, case-insensitively. */
export async function findUserByEmail(db: DatabaseClient, email: string): Promise<UserRecord | null> {
  return db.prisma.user.findUnique({ where: { emailNormalized: normalizeEmail(email) } });
}

/** Updates a user; 404 when missing, 409 when the new email is taken. */
export async function updateUser(
  db: DatabaseClient,
  id: string,
  changes: { email?: string; name?: string; passwordHash?: string | null; lastLoginAt?: Date | null; disabledAt?: Date | null },
): Promise<UserRecord> {
  const data: Record<string, unknown> = {};
  if (changes.email !== undefined) {
    data.email = changes.email.trim();
    data.emailNormalized = normalizeEmail(changes.email);
  }
  for (const field of ["name", "passwordHash", "lastLoginAt", "disabledAt"] as const) {
    if (changes[field] !== undefined) data[field] = changes[field];
  }
  return translateWrite("user", () => db.prisma.user.update({ where: { id }, data }));
}

/** Deletes a user: memberships, team/project memberships, sessions and MCP tokens go with it; keys they created stay. */
export async function deleteUser(db: DatabaseClient, id: string): Promise<void> {
  await translateWrite("user", () => db.prisma.user.delete({ where: { id } }));
}
