-- Concurrency (bulkhead) across JVMs: permits in flight per key, held per client instance with a lease.
-- KEYS[1] = hash {<instance> = permits that instance holds, <instance>:t = lease deadline (server millis)}
-- ARGV = mode (0 take, 1 peek, 2 release, 3 renew), limit, instance id, lease millis, retry-after millis
-- returns {allowed (1/0), remaining, reset epoch millis, retry-after millis}
-- A JVM renews the leases of the keys it holds permits on (mode 3) every lease/3; the permits of a JVM that
-- crashed (no renewals) are dropped by the next check once its lease has passed.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local id = ARGV[3]
local lease = tonumber(ARGV[4])
local retry = tonumber(ARGV[5])
local key = KEYS[1]

if mode == 2 then
  local n = redis.call('HINCRBY', key, id, -1)
  if n <= 0 then
    redis.call('HDEL', key, id, id .. ':t')
  end
  return {1, 0, now, 0}
end
if mode == 3 then
  if redis.call('HEXISTS', key, id) == 1 then
    redis.call('HSET', key, id .. ':t', now + lease)
    redis.call('PEXPIRE', key, 2 * lease)
    return {1, 0, now, 0}
  end
  return {0, 0, now, 0}
end

local h = redis.call('HGETALL', key)
local counts = {}
local deadlines = {}
for i = 1, #h, 2 do
  local f = h[i]
  if string.sub(f, -2) == ':t' then
    deadlines[string.sub(f, 1, -3)] = tonumber(h[i + 1])
  else
    counts[f] = tonumber(h[i + 1])
  end
end
local total = 0
for f, n in pairs(counts) do
  local deadline = deadlines[f]
  if deadline == nil or deadline < now then
    redis.call('HDEL', key, f, f .. ':t') -- a crashed (or partitioned) instance: its permits expire
  else
    if deadline > now + lease then
      -- more than one lease ahead: the server's clock stepped back since the renewal; hold it to one lease
      -- from now, so a crashed instance's permits do not outlive it by the size of the step
      redis.call('HSET', key, f .. ':t', now + lease)
    end
    if n > 0 then
      total = total + n
    end
  end
end
if total >= limit then
  return {0, 0, now, retry}
end
if mode == 1 then
  return {1, limit - total, now, 0}
end
redis.call('HINCRBY', key, id, 1)
redis.call('HSET', key, id .. ':t', now + lease)
redis.call('PEXPIRE', key, 2 * lease)
return {1, limit - total - 1, now, 0}
