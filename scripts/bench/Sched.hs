-- Scheduler-heavy: threads passing a token round a ring of MVars, so the eventlog is
-- mostly scheduler events (run with -N2), while the heap stays small.
import Control.Concurrent
import Control.Monad

main :: IO ()
main = do
  let n = 64
  vars <- replicateM n newEmptyMVar
  done <- newEmptyMVar
  forM_ (zip vars (tail vars ++ [head vars])) $ \(from, to) -> forkIO $ forever $ do
    v <- takeMVar from
    if v >= (2400000 :: Int) then putMVar done () else putMVar to (v + 1)
  putMVar (head vars) 0
  takeMVar done
