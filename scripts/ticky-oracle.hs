-- An eventlog's ticky-ticky counters (+RTS -lT, GHC 9.4 and later) as GHC's own eventlog
-- library (ghc-events 0.19 and later) reads them, one line each, tab-separated:
--   def ID NAME                          a counter's definition
--   begin TIME                           a sample begins (time in nanoseconds)
--   sample ID ENTRIES ALLOCS ALLOCD      one counter's counts since the sample before
-- The tests sum counters from this reading, not from hpgraph's own.
-- Build: ghc -O scripts/ticky-oracle.hs -o ticky-oracle (Debian: libghc-ghc-events-dev,
-- a version that reads GHC 9.6's eventlogs: ../shared/tools/ghc-chroot's).
import GHC.RTS.Events
import Data.List (intercalate)
import System.Environment (getArgs)
import System.Exit (die)
import qualified Data.Text as T

main :: IO ()
main = do
  [file] <- getArgs
  r <- readEventLogFromFile file
  EventLog _ (Data events) <- either die return r
  mapM_ line events
  where
    line (Event t e _) = case e of
      TickyCounterDef i _ _ n _ _ -> out ["def", show i, T.unpack n]
      TickyBeginSample -> out ["begin", show t]
      TickyCounterSample i n a d -> out ["sample", show i, show n, show a, show d]
      _ -> return ()
    out = putStrLn . intercalate "\t"
