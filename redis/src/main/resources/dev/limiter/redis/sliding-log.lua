-- Sliding log, one atomic check. Same semantics as core's SlidingLogStrategy: admit `permits` iff at most
-- `limit - permits` admissions are in (now - window, now]; the log keeps the time of each admitted permit.
-- KEYS[1] = list of admission times (epoch millis, oldest first; at most the largest limit, 10,000, entries)
-- ARGV = mode (0 take, 1 peek), limit, window millis, permits
-- returns {allowed (1/0), remaining, reset epoch millis, retry-after millis}
-- Each admission is recorded at max(now, the newest entry), so the list stays sorted: a server clock that stepped
-- back by less than a window only delays. Entries more than a window ahead can only come from a step back: they
-- do not count (at most one fresh budget, never a wait for the old time). A take drops the entries that no longer
-- count (found by binary search, LTRIM), so the list never holds more than the limit. Times are below 2^53,
-- exact as Lua doubles.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local permits = tonumber(ARGV[4])
local key = KEYS[1]
local n = redis.call('LLEN', key)

-- how many entries (a prefix: the list is sorted) are at or before `bound`
local function upTo(bound)
  if n == 0 or tonumber(redis.call('LINDEX', key, 0)) > bound then return 0 end
  if tonumber(redis.call('LINDEX', key, -1)) <= bound then return n end
  local lo, hi = 0, n - 1 -- lo is at or before bound, hi is after it
  while hi - lo > 1 do
    local mid = math.floor((lo + hi) / 2)
    if tonumber(redis.call('LINDEX', key, mid)) <= bound then lo = mid else hi = mid end
  end
  return hi
end

local first = upTo(now - window) -- entries before it have left the window
local last = upTo(now + window) -- entries from it on are a step back's
if last < first then last = first end
local counted = last - first
local newest = nil
if counted > 0 then newest = tonumber(redis.call('LINDEX', key, last - 1)) end
if mode == 0 and (first > 0 or last < n) then
  if counted == 0 then redis.call('DEL', key) else redis.call('LTRIM', key, first, last - 1) end
  first, last, n = 0, counted, counted
end
local reset = now
if newest ~= nil then reset = newest + window end

local function retryAfter()
  if permits > limit then return window end
  -- the entry that must leave first: counted + permits - limit of them, from the oldest that counts
  return tonumber(redis.call('LINDEX', key, first + counted + permits - limit - 1)) + window - now
end

if mode == 1 then
  if limit - counted <= 0 then
    return {0, 0, reset, retryAfter()}
  end
  return {1, limit - counted, reset, 0}
end
if permits <= limit and counted + permits <= limit then
  local at = now
  if newest ~= nil and newest > now then at = newest end
  local left = permits
  while left > 0 do -- in chunks: unpack is bounded by the Lua stack
    local chunk = math.min(left, 1000)
    local times = {}
    for i = 1, chunk do times[i] = at end
    redis.call('RPUSH', key, unpack(times))
    left = left - chunk
  end
  redis.call('PEXPIRE', key, at + window - now + 1000)
  return {1, limit - counted - permits, at + window, 0}
end
local remaining = limit - counted
if remaining < 0 then remaining = 0 end
return {0, remaining, reset, retryAfter()}
