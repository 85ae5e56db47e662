-- The user markers of an eventlog (Debug.Trace.traceMarker) as GHC's own eventlog
-- library (ghc-events) reads them, one line each, tab-separated:
--   TIME TEXT     the marker's time in nanoseconds and its text
-- The tests take the markers' times from this reading, not from hpgraph's own
-- (tests/it/markers.rs: a window between two markers is the window between their times).
-- Build: ghc -O scripts/markers-oracle.hs -o markers-oracle (Debian: libghc-ghc-events-dev).
--   for d in eventlog eventlog-9.6 eventlog-9.10; do for p in hT hc; do
--     ./markers-oracle fixtures/$d/Markers-$p.eventlog > fixtures/$d/Markers-$p.marks; done; done
--   ./markers-oracle fixtures/eventlog/Markers-hd.eventlog > fixtures/eventlog/Markers-hd.marks
-- (ghc-events 0.17 of GHC 9.0.2's Debian reads the markers of all three GHCs' eventlogs.)
import GHC.RTS.Events
import System.Environment (getArgs)
import System.Exit (die)
import qualified Data.Text as T
import qualified Data.Text.IO as TIO

main :: IO ()
main = do
  [file] <- getArgs
  r <- readEventLogFromFile file
  EventLog _ (Data events) <- either die return r
  mapM_ line events
  where
    line e = case evSpec e of
      UserMarker m -> TIO.putStrLn (T.concat [T.pack (show (evTime e)), T.pack "\t", m])
      _ -> return ()
