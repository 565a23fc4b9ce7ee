// What the routes sample leaves to the app: its session lookup and its database.
declare function getUser(request: Request): Promise<{ id: string } | undefined>;
declare const db: { users: { update(id: string, data: { avatarKey: string }): Promise<void> } };
