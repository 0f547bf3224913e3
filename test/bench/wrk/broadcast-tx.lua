-- wrk script: one unique 100-byte kvstore tx (`<run>-<thread>-<n>=vvv…`) per request, sent as
-- GET /<method>?tx="…" (the URI form). Arguments after `--`: method, run tag, delay per request in
-- ms (0: as fast as the connection allows; >0 paces each connection for a target rate).
local threads = 0
function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function init(args)
  method = args[1] or "broadcast_tx_async"
  run = args[2] or "r"
  pause = tonumber(args[3] or "0")
  sent = 0
end

function delay()
  return pause
end

function request()
  sent = sent + 1
  local key = run .. "-" .. tid .. "-" .. sent .. "="
  local tx = key .. string.rep("v", 100 - #key)
  return wrk.format("GET", "/" .. method .. "?tx=%22" .. tx .. "%22")
end
