-- What each capability of a run did, as GHC's own eventlog library (ghc-events) reads
-- its events, one line each, tab-separated, times in nanoseconds:
--   end TIME                        the run's end: its last event's time, or a block's
--                                   end time past it (the runtime was still writing)
--   cap N RUNNING GC                capability N's time running Haskell code (each
--                                   RunThread to the StopThread after it on N) and
--                                   collecting (StartGC to EndGC on N), within the window
--   sparks N CREATED DUD OVERFLOWED CONVERTED GCD FIZZLED   N's last spark counters
-- The window is the run, or FROM and TO (nanoseconds) as arguments: each stretch counts
-- the part of it inside. A stretch the run ends in counts to the run's end.
-- The tests compare hpgraph's figures with these, not with its own.
-- Build: ghc -O scripts/capabilities-oracle.hs -o capabilities-oracle (Debian:
-- libghc-ghc-events-dev).
import GHC.RTS.Events
import Data.List (foldl', intercalate, sortOn)
import qualified Data.Map.Strict as M
import System.Environment (getArgs)
import System.Exit (die)

data Cap = Cap { running :: !Integer, gc :: !Integer, run :: Maybe Integer, gcAt :: Maybe Integer }

main :: IO ()
main = do
  args <- getArgs
  (file, window) <- case args of
    [f] -> return (f, Nothing)
    [f, a, b] -> return (f, Just (read a, read b))
    _ -> die "usage: capabilities-oracle EVENTLOG [FROM TO]"
  r <- readEventLogFromFile file
  EventLog _ (Data events) <- either die return r
  let sorted = sortOn evTime events
      end = toInteger (maximum (0 : map evTime events ++ [t | Event _ (EventBlock t _ _) _ <- events]))
      (from, to) = maybe (0, end) id window
      clip a b = max 0 (min b to - max a from)
      step m (Event t e (Just c)) = M.alter (Just . go (toInteger t) e . maybe (Cap 0 0 Nothing Nothing) id) c m
      step m _ = m
      go t e k = case e of
        RunThread {} -> k { run = Just t }
        StopThread {} -> case run k of
          Just s -> k { running = running k + clip s t, run = Nothing }
          Nothing -> k
        StartGC -> k { gcAt = Just t }
        EndGC -> case gcAt k of
          Just s -> k { gc = gc k + clip s t, gcAt = Nothing }
          Nothing -> k
        _ -> k
      close k = k { running = running k + maybe 0 (\s -> clip s end) (run k)
                  , gc = gc k + maybe 0 (\s -> clip s end) (gcAt k) }
      caps = M.map close (foldl' step M.empty sorted)
      sparks = M.fromList [ (c, [crt, dud, ovf, cnv, gcd, fiz])
                          | Event _ (SparkCounters crt dud ovf cnv fiz gcd _) (Just c) <- sorted ]
  out ["end", show end]
  mapM_ (\(c, k) -> out ["cap", show c, show (running k), show (gc k)])
        (M.toList caps)
  mapM_ (\(c, s) -> out ("sparks" : show c : map show s)) (M.toList sparks)
  where
    out = putStrLn . intercalate "\t"
