// An open-loop offer from wrk (wrk2's idea, in wrk's LuaJIT): the Lua text of a delay() that
// makes request k of a wrk thread due at start + k × intervalMs on a monotonic clock (through
// ffi), whatever the answers' latency, so the offer does not fall when the node slows and is not
// rounded to whole milliseconds per connection; a thread behind schedule sends at once on every
// free connection. After `limit` requests the thread sends no more (wrk's -d ends the run).
// Shared by load.bench.ts (LOAD_RATE) and network.bench.ts (NETB_RATE).

/** Lua defining delay(): prepend it to a wrk script that defines no delay() of its own. */
export function scheduledDelayLua(intervalMs: number, limit: number): string {
  return `local ffi = require("ffi")
ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } rx_timespec; int clock_gettime(int, rx_timespec*); ]]
local ts = ffi.new("rx_timespec")
local function now_ms() ffi.C.clock_gettime(1, ts); return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6 end
local due, start = 0, nil
function delay()
  local t = now_ms()
  if start == nil then start = t end
  if due >= ${limit} then return 3600000 end
  local at = start + due * ${intervalMs}
  due = due + 1
  if at <= t then return 0 end
  return math.floor(at - t)
end
`;
}
