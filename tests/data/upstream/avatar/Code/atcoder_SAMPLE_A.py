import sys
def main ( ) :
    n = int ( input ( ) )
    a = list ( map ( int , input ( ).split ( ) ) )
    total = 0
    for x in a :
        if x % 2 == 0 :
            total += x
    print ( total )
if __name__ == "__main__" :
    main ( )
