// Tossing a fair coin until two heads in a row: 6 tosses on average.
dtmc
module coins
  h : [0..2] init 0;
  [toss] h<2 -> 1/2 : (h'=h+1) + 1/2 : (h'=0);
endmodule
rewards "tosses"
  [toss] true : 1;
endrewards
rewards "heads"
  h>0 : 1;
endrewards
label "done" = h=2;
