-- Several limits of one key as one atomic decision: every limit admits `permits`, or none is charged.
-- The same semantics per limit as fixed-window.lua, sliding-window.lua, sliding-log.lua and gcra.lua (read those
-- for the reasoning), with the server's clock (TIME) for all of them. Every limit is decided first, without writing;
-- only if all admit are the new states written. Nothing to refund, no window for a concurrent call to see a
-- permit that is then given back: the script runs alone on the server.
-- KEYS[i] = limit i's hash (all in one hash-tag slot: the rule id and the key)
-- ARGV = kind ('f' fixed-window, 's' sliding-window, 'l' sliding-log, 'g' token/leaky bucket), permits, mode
--        (0 take, 1 peek), then three per limit: f/s/l: limit, window millis, 0; g: perMilli, cost, tolerance
-- (a sliding log is a list, not a hash: its decision drops the entries that no longer count, which changes no
-- decision, and its write appends the call's entries)
-- returns {allowed (1/0), binding limit (1-based), remaining, reset epoch millis, retry-after millis, server millis}
--   binding: on an admission the limit with the least left; on a rejection the refusing limit with the
--   longest retry-after
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local kind = ARGV[1]
local permits = tonumber(ARGV[2])
local mode = tonumber(ARGV[3])

local function fdiv(a, b) return (a - a % b) / b end
local function cdiv(a, b) local r = a % b; return (a - r) / b + ((r > 0) and 1 or 0) end

-- each returns ok, remaining, reset, retry, and the fields to write on admission (nil: nothing) plus their ttl
local function fixed(key, limit, window)
  local nowWindow = math.floor(now / window)
  local s = redis.call('HMGET', key, 'w', 'n')
  local w = tonumber(s[1])
  local n = tonumber(s[2]) or 0
  if w == nil or (w ~= nowWindow and w ~= nowWindow + 1) then
    w = nowWindow
    n = 0
  end
  local windowEnd = (w + 1) * window
  if n + permits > limit then
    local left = limit - n
    if left < 0 then left = 0 end
    return false, left, windowEnd, windowEnd - now
  end
  return true, limit - n - permits, windowEnd, 0, {'w', w, 'n', n + permits}, windowEnd - now + 1000
end

local function sliding(key, limit, window)
  local nowWindow = math.floor(now / window)
  local s = redis.call('HMGET', key, 'w', 'p', 'c')
  local w = tonumber(s[1])
  local p = 0
  local c = 0
  if w == nil then
    w = nowWindow
  elseif w == nowWindow or w == nowWindow + 1 then
    p = tonumber(s[2]) or 0
    c = tonumber(s[3]) or 0
  elseif w == nowWindow - 1 then
    p = tonumber(s[3]) or 0
    w = nowWindow
  else
    w = nowWindow
  end
  local start = w * window
  local elapsed = now - start
  if elapsed < 0 then elapsed = 0 end
  local weighted = p * (window - elapsed)
  local reset = start + 2 * window
  if c + permits <= limit and weighted <= (limit - c - permits) * window then
    return true, limit - c - permits - cdiv(weighted, window), reset, 0, {'w', w, 'p', p, 'c', c + permits},
      reset - now + 1000
  end
  -- the room of one permit under a limit lowered by the others (as the local strategy computes it)
  local room = limit - permits + 1
  local retry
  if c < room then
    retry = start + window - fdiv((room - c - 1) * window, p) - now
  else
    retry = start + 2 * window - fdiv((room - 1) * window, c) - now
  end
  local left = limit - c - cdiv(weighted, window)
  if left < 0 then left = 0 end
  return false, left, reset, retry
end

local function bucket(key, perMilli, cost, tolerance)
  local s = redis.call('HMGET', key, 'd', 't', 'k', 'm')
  local debt = 0
  if s[1] then
    debt = tonumber(s[1])
    local at = tonumber(s[2]) or now
    local oldCost = tonumber(s[3]) or cost
    local oldPerMilli = tonumber(s[4]) or perMilli
    local elapsed = now - at
    if elapsed > 0 then
      if elapsed >= cdiv(debt, oldPerMilli) then debt = 0 else debt = debt - elapsed * oldPerMilli end
    end
    if oldCost ~= cost then debt = cdiv(debt * cost, oldCost) end
    if debt > tolerance then debt = tolerance end
  end
  local nextDebt = debt + permits * cost
  if nextDebt <= tolerance then
    return true, fdiv(tolerance - nextDebt, cost), now + cdiv(nextDebt, perMilli), 0,
      {'d', nextDebt, 't', now, 'k', cost, 'm', perMilli}, cdiv(nextDebt, perMilli) + 1000
  end
  return false, fdiv(tolerance - debt, cost), now + cdiv(debt, perMilli), cdiv(nextDebt - tolerance, perMilli)
end

local function log(key, limit, window)
  local n = redis.call('LLEN', key)
  local function upTo(bound) -- how many entries (a prefix: the list is sorted) are at or before bound
    if n == 0 or tonumber(redis.call('LINDEX', key, 0)) > bound then return 0 end
    if tonumber(redis.call('LINDEX', key, -1)) <= bound then return n end
    local lo, hi = 0, n - 1
    while hi - lo > 1 do
      local mid = math.floor((lo + hi) / 2)
      if tonumber(redis.call('LINDEX', key, mid)) <= bound then lo = mid else hi = mid end
    end
    return hi
  end
  local first = upTo(now - window)
  local last = upTo(now + window) -- from it on: a step back's entries, which do not count
  if last < first then last = first end
  local counted = last - first
  local newest = nil
  if counted > 0 then newest = tonumber(redis.call('LINDEX', key, last - 1)) end
  if mode == 0 and (first > 0 or last < n) then
    if counted == 0 then redis.call('DEL', key) else redis.call('LTRIM', key, first, last - 1) end
    first = 0
  end
  local reset = now
  if newest ~= nil then reset = newest + window end
  if permits <= limit and counted + permits <= limit then
    local at = now
    if newest ~= nil and newest > now then at = newest end
    return true, limit - counted - permits, at + window, 0, {at, permits}, at + window - now + 1000
  end
  local retry = window
  if permits <= limit then
    retry = tonumber(redis.call('LINDEX', key, first + counted + permits - limit - 1)) + window - now
  end
  local left = limit - counted
  if left < 0 then left = 0 end
  return false, left, reset, retry
end

local decide = fixed
if kind == 's' then decide = sliding elseif kind == 'g' then decide = bucket elseif kind == 'l' then decide = log end

local writes = {}
local ttls = {}
local admitted = true
local binding = 0
local bRemaining, bReset, bRetry = 0, 0, 0
for i = 1, #KEYS do
  local a, b, c = tonumber(ARGV[1 + 3 * i]), tonumber(ARGV[2 + 3 * i]), tonumber(ARGV[3 + 3 * i])
  local ok, remaining, reset, retry, fields, ttl = decide(KEYS[i], a, b, c)
  if ok then
    writes[i] = fields
    ttls[i] = ttl
    if admitted and (binding == 0 or remaining < bRemaining) then
      binding, bRemaining, bReset, bRetry = i, remaining, reset, 0
    end
  else
    if admitted or retry > bRetry then
      binding, bRemaining, bReset, bRetry = i, remaining, reset, retry
    end
    admitted = false
  end
end
if admitted and mode == 0 then
  for i = 1, #KEYS do
    if kind == 'l' then
      local left = writes[i][2]
      while left > 0 do -- in chunks: unpack is bounded by the Lua stack
        local chunk = math.min(left, 1000)
        local times = {}
        for j = 1, chunk do times[j] = writes[i][1] end
        redis.call('RPUSH', KEYS[i], unpack(times))
        left = left - chunk
      end
    else
      redis.call('HSET', KEYS[i], unpack(writes[i]))
    end
    redis.call('PEXPIRE', KEYS[i], ttls[i])
  end
end
if admitted then
  return {1, binding, bRemaining, bReset, 0, now}
end
return {0, binding, bRemaining, bReset, bRetry, now}
