/**
 * The Redis store's three Lua scripts, one per operation (reserve, settle, release): each runs atomically in
 * Redis (no other command runs between its reads and writes, whichever process sent it) and is one round trip.
 *
 * Keys, under the store's prefix `P` (the subject last, so that no subject can forge another's key):
 * - `P{p|f|b}:{windowSeconds}:{window}:{subject}`: the preparations, files and bytes counted in one fixed
 *   window (`window` = floor(now / length), the epoch's alignment, `now` from Redis's own clock: `TIME`, so
 *   that every process agrees), expiring when the window ends;
 * - `Pi:{subject}`: the subject's reservations in flight, a sorted set of ids scored by `expiresAt` (ms);
 * - `Pr:{id}`: one reservation, a hash: `b` its bytes, `bk` and `fk` the bytes and files windows that counted
 *   it (`''`: no such limit), `ik` its in-flight set, `e` its `expiresAt`; it expires when it no longer
 *   matters: at `expiresAt` or when the last window that counted it ends, whichever is later.
 * Every key expires on its own: a subject that stops uploading leaves nothing behind.
 *
 * The keys are computed inside the scripts (from `TIME` and the reservation), so the scripts declare none:
 * they run on one Redis (standalone, or a primary behind Sentinel), not on Redis Cluster.
 */

/**
 * What every script begins with: `now` in ms from Redis's clock, and `give_back(id, only_expired)`, which
 * removes a reservation and gives its bytes and its file back to the windows that counted them, if those
 * windows still exist (a window that has ended is not brought back to life). `redis.replicate_commands()`:
 * Redis 3.2 to 4 replicate a script that reads `TIME` only as its effects (5 and later always do).
 */
const PRELUDE = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local prefix = ARGV[1]

local function give_back(id, only_expired)
  local rkey = prefix .. 'r:' .. id
  local r = redis.call('HMGET', rkey, 'b', 'bk', 'fk', 'ik', 'e')
  if not r[1] then return false end
  if only_expired and tonumber(r[5]) > now then return false end
  if r[2] ~= '' and redis.call('EXISTS', r[2]) == 1 then redis.call('DECRBY', r[2], r[1]) end
  if r[3] ~= '' and redis.call('EXISTS', r[3]) == 1 then redis.call('DECR', r[3]) end
  redis.call('ZREM', r[4], id)
  redis.call('DEL', rkey)
  return r
end
`;

/**
 * ARGV: prefix, subject, id, bytes, expiresAt (ms), then `max` and `windowSeconds` of preparations, bytes and
 * files (`''` when not limited), then inFlight (`''` when not limited).
 * Returns `{1}` granted, or `{0, limit, retryAfter}` refused (nothing counted).
 */
export const RESERVE_SCRIPT = `${PRELUDE}
local subject, id, bytes, expires_at = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local ikey = prefix .. 'i:' .. subject

-- Expired reservations first: their bytes and files back, their slots freed.
local expired = redis.call('ZRANGEBYSCORE', ikey, '-inf', now)
for _, xid in ipairs(expired) do give_back(xid, true) end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', ikey, '-inf', now) end

local function window(kind, max, seconds)
  if max == '' then return nil end
  local length = tonumber(seconds) * 1000
  local index = math.floor(now / length)
  local key = prefix .. kind .. ':' .. seconds .. ':' .. string.format('%d', index) .. ':' .. subject
  return { key = key, max = tonumber(max), ends = (index + 1) * length,
    count = tonumber(redis.call('GET', key) or '0') }
end
local function wait(ends)
  return math.max(1, math.ceil((ends - now) / 1000))
end

local preparations = window('p', ARGV[6], ARGV[7])
local byte_window = window('b', ARGV[8], ARGV[9])
local files = window('f', ARGV[10], ARGV[11])
local in_flight = ARGV[12]

if preparations and preparations.count + 1 > preparations.max then
  return { 0, 'preparations', wait(preparations.ends) }
end
if in_flight ~= '' and redis.call('ZCARD', ikey) >= tonumber(in_flight) then
  local first = redis.call('ZRANGE', ikey, 0, 0, 'WITHSCORES')
  return { 0, 'inFlight', first[2] and wait(tonumber(first[2])) or 1 }
end
if files and files.count + 1 > files.max then
  return { 0, 'files', wait(files.ends) }
end
if byte_window and byte_window.count + tonumber(bytes) > byte_window.max then
  return { 0, 'bytes', wait(byte_window.ends) }
end

local keeps = expires_at
local function count(w, by)
  if not w then return '' end
  redis.call('INCRBY', w.key, by)
  redis.call('PEXPIREAT', w.key, string.format('%d', w.ends))
  if w.ends > keeps then keeps = w.ends end
  return w.key
end
count(preparations, 1)
local fk = count(files, 1)
local bk = count(byte_window, bytes)

local rkey = prefix .. 'r:' .. id
-- The same id again (an object key prepared anew while its upload is in flight): the newer reservation is the
-- one held; what the older one counted stays counted.
local previous = redis.call('HGET', rkey, 'ik')
if previous then redis.call('ZREM', previous, id) end
redis.call('HSET', rkey, 'b', bytes, 'bk', bk, 'fk', fk, 'ik', ikey, 'e', ARGV[5])
redis.call('PEXPIREAT', rkey, string.format('%d', keeps))
redis.call('ZADD', ikey, ARGV[5], id)
-- The set lives as long as its longest-lived reservation: pruning it is how expired ones give their bytes back.
local ttl = redis.call('PTTL', ikey)
if ttl > 0 and now + ttl > keeps then keeps = now + ttl end
redis.call('PEXPIREAT', ikey, string.format('%d', keeps))
return { 1 }
`;

/**
 * ARGV: prefix, id, size (bytes). Returns the reserved bytes (a string), or nil when no reservation is held
 * (settled, released, or expired: an expired one is given back here, as a reserve would).
 */
export const SETTLE_SCRIPT = `${PRELUDE}
local id, size = ARGV[2], ARGV[3]
if give_back(id, true) then return false end
local rkey = prefix .. 'r:' .. id
local r = redis.call('HMGET', rkey, 'b', 'bk', 'ik')
if not r[1] then return false end
if r[2] ~= '' and redis.call('EXISTS', r[2]) == 1 then
  redis.call('INCRBY', r[2], size)
  redis.call('DECRBY', r[2], r[1])
end
redis.call('ZREM', r[3], id)
redis.call('DEL', rkey)
return r[1]
`;

/** ARGV: prefix, id. Gives the reservation back, if one is held. */
export const RELEASE_SCRIPT = `${PRELUDE}
give_back(ARGV[2], false)
return false
`;
