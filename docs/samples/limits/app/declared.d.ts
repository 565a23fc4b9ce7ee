// What the limits sample leaves to the app: its session lookup.
declare function getUser(request: Request): Promise<{ id: string; plan: 'free' | 'pro' } | undefined>;
