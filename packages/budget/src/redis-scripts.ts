/**
 * Lua scripts of the Redis store. Each runs atomically in Redis. Key layout (after the prefix):
 * - budget counter `b:<budgetId>:<periodKey>[:<version>]`: hash with `s` (settled micro-USD), `v`
 *   (sum of live reservations), `k` (seeded marker: the period's recorded spend was added),
 *   `r:<admissionId>` (one reservation's amount), `t:<threshold>` (crossed marker); plus `...:z`,
 *   a sorted set of admission ids scored by reservation deadline. A hash without `k` (new, or
 *   lost by a Redis restart or eviction) is never read as 0: admission reports it `unseeded`.
 * - request log `r:<limitId>:q`: sorted set of admission ids scored by admission time.
 * - token log `r:<limitId>:t`: same, plus hash `...:h` with each admission's tokens, `sum` and,
 *   for windows rebuilt from recorded usage, `k` (seeded marker).
 * - concurrency `r:<limitId>:c`: sorted set of admission ids scored by lease deadline.
 * @internal
 */

const helpers = `
local function extend(key, ttl)
  if ttl < 1 then ttl = 1 end
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end

-- Calls command(key, <fields>) in chunks (Lua's unpack has a small stack limit); returns replies concatenated.
local function chunked(command, key, fields)
  local replies = {}
  for first = 1, #fields, 500 do
    local last = math.min(first + 499, #fields)
    local reply = redis.call(command, key, unpack(fields, first, last))
    if type(reply) == 'table' then
      for i = 1, #reply do replies[#replies + 1] = reply[i] end
    end
  end
  return replies
end

-- Drops reservations whose deadline passed and subtracts them from the reserved sum.
local function reclaim(hash, zset, now)
  local expired = redis.call('ZRANGEBYSCORE', zset, '-inf', now)
  if #expired == 0 then return end
  local fields = {}
  for i = 1, #expired do fields[i] = 'r:' .. expired[i] end
  local amounts = chunked('HMGET', hash, fields)
  local freed = 0
  for i = 1, #amounts do freed = freed + (tonumber(amounts[i]) or 0) end
  chunked('HDEL', hash, fields)
  if freed ~= 0 then redis.call('HINCRBY', hash, 'v', -freed) end
  redis.call('ZREMRANGEBYSCORE', zset, '-inf', now)
end

-- Drops token-log entries that left the window and subtracts their tokens from the sum.
local function trimTokens(log, hash, cutoff)
  local expired = redis.call('ZRANGEBYSCORE', log, '-inf', cutoff)
  if #expired == 0 then return end
  local amounts = chunked('HMGET', hash, expired)
  local freed = 0
  for i = 1, #amounts do freed = freed + (tonumber(amounts[i]) or 0) end
  chunked('HDEL', hash, expired)
  if freed ~= 0 then redis.call('HINCRBY', hash, 'sum', -freed) end
  redis.call('ZREMRANGEBYSCORE', log, '-inf', cutoff)
end
`;

/**
 * ARGV: now, admissionId, leaseExpiresAt, #requests, #tokens, #concurrency, #reservations,
 * then per request limit: limit, windowMs (KEYS: log); per token limit: limit, windowMs, tokens,
 * rebuild 0/1 (KEYS: log, hash); per concurrency limit: limit (KEYS: set); per reservation: limit, amount,
 * expiresAt or -1 (KEYS: hash, zset). Returns {'ok'}, {kind, index, a, b} or
 * {'unseeded', #reservations, index..., token index...} (reservations whose counter, and rebuilt
 * token windows whose hash, has no seeded marker; nothing recorded).
 */
export const admitScript = `${helpers}
local now = tonumber(ARGV[1])
local id = ARGV[2]
local lease = tonumber(ARGV[3])
local nq, nt, nc, nr = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])

-- Phase 1: check every step; nothing is recorded unless all pass.
local k, a = 1, 8
for i = 1, nq do
  local log, limit, window = KEYS[k], tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  redis.call('ZREMRANGEBYSCORE', log, '-inf', now - window)
  local count = redis.call('ZCARD', log)
  if count + 1 > limit then
    local retry = window
    if limit > 0 then
      local entry = redis.call('ZRANGE', log, count - limit, count - limit, 'WITHSCORES')
      if entry[2] then retry = tonumber(entry[2]) + window - now end
    end
    return {'requests', i - 1, retry}
  end
  k, a = k + 1, a + 2
end
local unseededTokens = nil
for i = 1, nt do
  local log, hash = KEYS[k], KEYS[k + 1]
  local limit, window, tokens = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  trimTokens(log, hash, now - window)
  local sum = tonumber(redis.call('HGET', hash, 'sum') or '0') or 0
  if ARGV[a + 3] == '1' and redis.call('HEXISTS', hash, 'k') == 0 then
    if not unseededTokens then unseededTokens = {} end
    unseededTokens[#unseededTokens + 1] = i - 1
  elseif sum + tokens > limit then
    local retry = window
    if tokens <= limit then
      local entries = redis.call('ZRANGE', log, 0, -1, 'WITHSCORES')
      local remaining = sum
      for j = 1, #entries, 2 do
        remaining = remaining - (tonumber(redis.call('HGET', hash, entries[j])) or 0)
        if remaining + tokens <= limit then
          retry = tonumber(entries[j + 1]) + window - now
          break
        end
      end
    end
    return {'tokens', i - 1, retry}
  end
  k, a = k + 2, a + 4
end
for i = 1, nc do
  local set, limit = KEYS[k], tonumber(ARGV[a])
  redis.call('ZREMRANGEBYSCORE', set, '-inf', now)
  if redis.call('ZCARD', set) + 1 > limit then return {'concurrency', i - 1, 1000} end
  k, a = k + 1, a + 1
end
local unseeded = nil
if unseededTokens then unseeded = {'unseeded', 0} end
for i = 1, nr do
  local hash, zset = KEYS[k], KEYS[k + 1]
  local limit, amount = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  reclaim(hash, zset, now)
  local values = redis.call('HMGET', hash, 's', 'v', 'k')
  if not values[3] then
    if not unseeded then unseeded = {'unseeded', 0} end
    unseeded[2] = unseeded[2] + 1
    unseeded[#unseeded + 1] = i - 1
  else
    local spent, reserved = tonumber(values[1]) or 0, tonumber(values[2]) or 0
    if spent + reserved + amount > limit then return {'budget', i - 1, spent, reserved} end
  end
  k, a = k + 2, a + 3
end
if unseeded then
  if unseededTokens then
    for i = 1, #unseededTokens do unseeded[#unseeded + 1] = unseededTokens[i] end
  end
  return unseeded
end

-- Phase 2: record.
k, a = 1, 8
for i = 1, nq do
  local log, window = KEYS[k], tonumber(ARGV[a + 1])
  redis.call('ZADD', log, now, id)
  extend(log, window)
  k, a = k + 1, a + 2
end
for i = 1, nt do
  local log, hash = KEYS[k], KEYS[k + 1]
  local window, tokens = tonumber(ARGV[a + 1]), ARGV[a + 2]
  redis.call('ZADD', log, now, id)
  redis.call('HSET', hash, id, tokens)
  redis.call('HINCRBY', hash, 'sum', tokens)
  extend(log, window)
  extend(hash, window)
  k, a = k + 2, a + 4
end
for i = 1, nc do
  local set = KEYS[k]
  redis.call('ZADD', set, lease, id)
  extend(set, lease - now)
  k, a = k + 1, a + 1
end
for i = 1, nr do
  local hash, zset = KEYS[k], KEYS[k + 1]
  local amount, expiresAt = ARGV[a + 1], tonumber(ARGV[a + 2])
  redis.call('HSET', hash, 'r:' .. id, amount)
  redis.call('HINCRBY', hash, 'v', amount)
  redis.call('ZADD', zset, lease, id)
  if expiresAt >= 0 then
    extend(hash, expiresAt - now)
    extend(zset, expiresAt - now)
  end
  k, a = k + 2, a + 3
end
return {'ok'}
`;

/**
 * ARGV: now, admissionId, #spends, #tokenCorrections, #concurrencyReleases, then per spend:
 * amount, expiresAt or -1, #thresholds, (name, micros) per threshold (KEYS: hash, zset);
 * per token correction: tokens (KEYS: hash); per release: (KEYS: set).
 * Returns {#unseeded, spendIndex..., then (spendIndex, thresholdIndex, spent) per first crossing}.
 * An unseeded counter (no `k`) gets the spend but no threshold check.
 */
export const settleScript = `${helpers}
local now = tonumber(ARGV[1])
local id = ARGV[2]
local ns, nt, nc = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local crossed = {}
local unseeded = {}
local k, a = 1, 6
for i = 1, ns do
  local hash, zset = KEYS[k], KEYS[k + 1]
  local amount, expiresAt, nth = ARGV[a], tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  a = a + 3
  local field = 'r:' .. id
  local reserved = redis.call('HGET', hash, field)
  if reserved then
    redis.call('HDEL', hash, field)
    redis.call('HINCRBY', hash, 'v', -tonumber(reserved))
    redis.call('ZREM', zset, id)
  end
  local spent = redis.call('HINCRBY', hash, 's', amount)
  if expiresAt >= 0 then extend(hash, expiresAt - now) end
  local seeded = redis.call('HEXISTS', hash, 'k') == 1
  if not seeded then unseeded[#unseeded + 1] = i - 1 end
  for t = 1, nth do
    local name, micros = ARGV[a], tonumber(ARGV[a + 1])
    if seeded and spent >= micros and redis.call('HSETNX', hash, 't:' .. name, '1') == 1 then
      crossed[#crossed + 1] = i - 1
      crossed[#crossed + 1] = t - 1
      crossed[#crossed + 1] = spent
    end
    a = a + 2
  end
  k = k + 2
end
for i = 1, nt do
  local hash, tokens = KEYS[k], tonumber(ARGV[a])
  local previous = redis.call('HGET', hash, id)
  if previous then
    redis.call('HSET', hash, id, tokens)
    redis.call('HINCRBY', hash, 'sum', tokens - tonumber(previous))
  end
  k, a = k + 1, a + 1
end
for i = 1, nc do
  redis.call('ZREM', KEYS[k], id)
  k = k + 1
end
local reply = {#unseeded}
for i = 1, #unseeded do reply[#reply + 1] = unseeded[i] end
for i = 1, #crossed do reply[#reply + 1] = crossed[i] end
return reply
`;

/**
 * KEYS: (hash, zset) per budget; ARGV: now. Returns {spent, reserved, seeded 0/1} per budget,
 * flat, after reclaiming expired reservations (several budgets in one call: the status page).
 */
export const readBudgetsScript = `${helpers}
local now = tonumber(ARGV[1])
local reply = {}
for i = 1, #KEYS, 2 do
  reclaim(KEYS[i], KEYS[i + 1], now)
  local values = redis.call('HMGET', KEYS[i], 's', 'v', 'k')
  reply[#reply + 1] = tonumber(values[1]) or 0
  reply[#reply + 1] = tonumber(values[2]) or 0
  if values[3] then reply[#reply + 1] = 1 else reply[#reply + 1] = 0 end
end
return reply
`;

/**
 * KEYS: hash; ARGV: now, amount, expiresAt or -1, #thresholds, (name, micros) per threshold.
 * Adds the recorded spend and sets the seeded marker unless it is already set (another instance
 * seeded first): settled spend that created the hash meanwhile is kept. Thresholds the recorded
 * spend alone reaches are marked silently; those reached only with the settled spend are
 * reported. Returns {0} when already seeded, else {1, (thresholdIndex, spent) per crossing}.
 */
export const seedBudgetScript = `${helpers}
local hash, now = KEYS[1], tonumber(ARGV[1])
if redis.call('HSETNX', hash, 'k', '1') == 0 then return {0} end
local recorded = tonumber(ARGV[2])
local spent = redis.call('HINCRBY', hash, 's', ARGV[2])
local expiresAt, nth = tonumber(ARGV[3]), tonumber(ARGV[4])
local reply = {1}
for t = 1, nth do
  local name, micros = ARGV[3 + 2 * t], tonumber(ARGV[4 + 2 * t])
  if spent >= micros and redis.call('HSETNX', hash, 't:' .. name, '1') == 1 and recorded < micros then
    reply[#reply + 1] = t - 1
    reply[#reply + 1] = spent
  end
end
if expiresAt >= 0 then extend(hash, expiresAt - now) end
return reply
`;

/**
 * KEYS: token log, token hash; ARGV: now, windowMs, #entries, (id, time, tokens) per entry.
 * Rebuilds a token window from recorded usage unless its seeded marker is set (another instance
 * did first). Returns 1 when seeded here.
 */
export const seedTokenWindowScript = `${helpers}
local log, hash = KEYS[1], KEYS[2]
local now, window, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if redis.call('HSETNX', hash, 'k', '1') == 0 then return 0 end
local added = 0
for i = 1, n do
  local id, time, tokens = ARGV[1 + 3 * i], tonumber(ARGV[2 + 3 * i]), tonumber(ARGV[3 + 3 * i])
  redis.call('ZADD', log, time, id)
  redis.call('HSET', hash, id, tokens)
  added = added + tokens
end
if added ~= 0 then redis.call('HINCRBY', hash, 'sum', added) end
extend(log, window)
extend(hash, window)
return 1
`;

/**
 * KEYS: (request log, token log, token hash, concurrency set) per rate limit; ARGV: (now,
 * windowMs) per rate limit. Returns {requests, tokens, concurrent, token window seeded 0/1} per
 * rate limit, flat, as the admission script counts them (after trimming).
 */
export const readRateLimitsScript = `${helpers}
local reply = {}
for i = 1, #KEYS, 4 do
  local now, window = tonumber(ARGV[1 + (i - 1) / 2]), tonumber(ARGV[2 + (i - 1) / 2])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  trimTokens(KEYS[i + 1], KEYS[i + 2], now - window)
  reply[#reply + 1] = redis.call('ZCARD', KEYS[i])
  reply[#reply + 1] = tonumber(redis.call('HGET', KEYS[i + 2], 'sum') or '0') or 0
  reply[#reply + 1] = redis.call('ZCOUNT', KEYS[i + 3], '(' .. now, '+inf')
  reply[#reply + 1] = redis.call('HEXISTS', KEYS[i + 2], 'k')
end
return reply
`;
