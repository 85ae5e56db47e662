-- The cost-centre samples of an eventlog (+RTS -p -l-au) as GHC's own eventlog library
-- (ghc-events) reads them, one line each, tab-separated:
--   cc ID MODULE LABEL SRC           a cost centre's definition
--   begin INTERVAL                   the profiler's tick interval, in nanoseconds
--   sample TIME CAP TICK ID,ID,...   one sample: time in nanoseconds, capability, the
--                                    run's tick count, the stack innermost first
-- The tests weigh stacks from this reading, not from hpgraph's own.
-- Build: ghc -O scripts/samples-oracle.hs -o samples-oracle (Debian: libghc-ghc-events-dev).
import GHC.RTS.Events
import Data.List (intercalate)
import System.Environment (getArgs)
import System.Exit (die)
import qualified Data.Text as T
import qualified Data.Vector.Unboxed as V

main :: IO ()
main = do
  [file] <- getArgs
  r <- readEventLogFromFile file
  EventLog _ (Data events) <- either die return r
  mapM_ line events
  where
    line (Event t e _) = case e of
      HeapProfCostCentre i l m s _ ->
        out ["cc", show i, T.unpack m, T.unpack l, T.unpack s]
      ProfBegin i -> out ["begin", show i]
      ProfSampleCostCentre c k _ s ->
        out ["sample", show t, show c, show k, intercalate "," (map show (V.toList s))]
      _ -> return ()
    out = putStrLn . intercalate "\t"
