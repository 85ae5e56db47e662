-- The reference --stats is timed against (scripts/bench-stats.sh): ghc-events, GHC's
-- eventlog library, reading an eventlog and summing what --stats sums (bytes copied and
-- collections from GC_STATS_GHC, each capability's last allocation counter). It reads
-- the file as ghc-events reads every file, whole.
import GHC.RTS.Events
import qualified Data.Map.Strict as M
import Data.List (foldl')
import System.Environment (getArgs)

main :: IO ()
main = do
  [file] <- getArgs
  Right (EventLog _ (Data evs)) <- readEventLogFromFile file
  let step (copied, gcs, alloc) ev = case evSpec ev of
        GCStatsGHC { copied = c } -> (copied + c, gcs + 1 :: Int, alloc)
        HeapAllocated { allocBytes = b } -> (copied, gcs, M.insert (evCap ev) b alloc)
        _ -> (copied, gcs, alloc)
      (c, n, a) = foldl' step (0, 0, M.empty) evs
  putStrLn (show (sum (M.elems a)) ++ " bytes allocated, " ++ show c ++ " copied, " ++ show n ++ " collections")
